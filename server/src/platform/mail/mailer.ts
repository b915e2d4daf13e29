import { randomUUID } from 'node:crypto';
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  template: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Without SMTP_URL: one JSON file per message, `<epoch-ms>-<template>.json`. */
export function createOutboxMailer(dir: string, now: () => Date = () => new Date()): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const createdAt = now();
      const body = `${JSON.stringify({ ...message, created_at: createdAt.toISOString() }, null, 2)}\n`;
      // Written whole under a temporary name, then linked into place: a reader never sees a partial file.
      const temporary = path.join(dir, `.${randomUUID()}.tmp`);
      await writeFile(temporary, body, { flag: 'wx' });
      try {
        // two mails in one millisecond get a counter rather than overwrite each other
        for (let attempt = 0; ; attempt++) {
          const name = `${createdAt.getTime()}-${message.template}${attempt === 0 ? '' : `-${attempt}`}.json`;
          try {
            await link(temporary, path.join(dir, name));
            return;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 100) throw error;
          }
        }
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async close() {},
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer loads with the first message (a tenth of a second at start-up otherwise), in the worker that sends it
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  return {
    async send(message) {
      await (await open()).sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { 'X-Riff-Template': message.template },
      });
    },
    async close() {
      if (transport) (await transport).close();
    },
  };
}

export function createMailer(config: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  return config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.from) : createOutboxMailer(config.outboxDir);
}
