import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  template: string;
  created_at: string;
  file: string;
}

export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => ({
      ...(JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Omit<OutboxMail, 'file'>),
      file,
    })),
  );
}

/** Waits for the newest mail of a template to an address (mail is sent off the request path). */
export async function waitForMail(
  dir: string,
  to: string,
  template: string,
  after = 0,
  timeoutMs = 5000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await readOutbox(dir)).filter((mail) => mail.to === to && mail.template === template);
    if (mails.length > after) return mails[mails.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no ${template} mail to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const tokenFromMail = (mail: { text: string }) => {
  const match = /[?&]token=([^\s&]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no token link in mail');
  return decodeURIComponent(match[1]);
};
