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

/** Mails already read, by path: an outbox file is written whole once (a temporary file linked into place) and never changed. */
const readMails = new Map<string, OutboxMail>();

/** The mails of one template in an outbox, oldest first, reading only files not read before. */
async function mailsOf(dir: string, template: string): Promise<OutboxMail[]> {
  // `<epoch-ms>-<template>.json`, or `…-<template>-<n>.json` for a second mail in the same millisecond
  const named = new RegExp(`^\\d+-${template.replace(/[^a-z0-9]/gi, '\\$&')}(-\\d+)?\\.json$`);
  let files: string[];
  try {
    files = (await readdir(dir)).filter((name) => named.test(name)).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const at = path.join(dir, file);
      let mail = readMails.get(at);
      if (!mail) {
        mail = { ...(JSON.parse(await readFile(at, 'utf8')) as Omit<OutboxMail, 'file'>), file };
        readMails.set(at, mail);
      }
      return mail;
    }),
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
    const mails = (await mailsOf(dir, template)).filter((mail) => mail.to === to && mail.template === template);
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
