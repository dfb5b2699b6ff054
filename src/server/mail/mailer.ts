import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { OutboxMail } from '../db/schema.ts';

// Sends one mail now. The outbox worker is its only caller: services queue mail with enqueueMail instead.

export type Mailer = {
  readonly kind: 'smtp' | 'outbox-files';
  /** Sends (or writes) one mail; throws when it could not, so the outbox retries it later. */
  send(mail: OutboxMail, id: number): Promise<void>;
  close(): void;
};

type MailerConfig = Pick<Config, 'smtpUrl' | 'mailFrom' | 'outboxDir'>;

/** `a***@example.com`: enough to tell mails apart in a log, not enough to harvest addresses. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export function firstLink(text: string): string | undefined {
  return /https?:\/\/\S+/.exec(text)?.[0];
}

function message(config: MailerConfig, mail: OutboxMail) {
  return {
    from: config.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
  };
}

/** SMTP when SMTP_URL is set; otherwise `.eml` files in DATA_DIR/outbox and one log line naming the file. */
export function createMailer(config: MailerConfig, log: FastifyBaseLogger): Mailer {
  return config.smtpUrl ? smtpMailer(config, config.smtpUrl) : outboxFileMailer(config, log);
}

function smtpMailer(config: MailerConfig, url: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    // A server that does not answer must not hold the worker for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail(message(config, mail));
    },
    close: () => transport.close(),
  };
}

function outboxFileMailer(config: MailerConfig, log: FastifyBaseLogger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox-files',
    async send(mail, id) {
      const info = await transport.sendMail(message(config, mail));
      await fs.mkdir(config.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:.]/g, '');
      const file = path.join(config.outboxDir, `${stamp}-${String(id).padStart(8, '0')}.eml`);
      // Written whole, then renamed: a reader never sees half a mail.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
      // Where to read it, never its link: a reset or verification token in the log would let anyone who
      // reads the log take over the account (docs/security.md 22). The file itself is the local inbox.
      log.info(`mail to ${maskEmail(mail.to)}: ${mail.subject} (${file})`);
    },
    close: () => transport.close(),
  };
}
