import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

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

/** Without SMTP_URL: one JSON file per message, `<epoch-ms>-<template>.json` (ADDENDUM "Mail outbox"). */
export function createOutboxMailer(dir: string, now: () => Date = () => new Date()): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const createdAt = now();
      const body = `${JSON.stringify({ ...message, created_at: createdAt.toISOString() }, null, 2)}\n`;
      // two mails in one millisecond get a counter rather than overwrite each other
      for (let attempt = 0; ; attempt++) {
        const name = `${createdAt.getTime()}-${message.template}${attempt === 0 ? '' : `-${attempt}`}.json`;
        try {
          await writeFile(path.join(dir, name), body, { flag: 'wx' });
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 100) throw error;
        }
      }
    },
    async close() {},
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { 'X-Riff-Template': message.template },
      });
    },
    async close() {
      transport.close();
    },
  };
}

export function createMailer(config: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  return config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.from) : createOutboxMailer(config.outboxDir);
}
