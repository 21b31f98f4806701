import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}
export interface OutboxItem extends Mail {
  sent_at: string;
  links: string[];
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Present only without SMTP: the development outbox. */
  outbox?: OutboxItem[];
  close(): void;
}

const OUTBOX_LIMIT = 200;

/** Real SMTP when SMTP_URL is set; otherwise mail is logged and kept in a development outbox. */
export function createMailer(config: { smtpUrl?: string; mailFrom: string }, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(
      config.smtpUrl.includes('pool=') ? config.smtpUrl : withPool(config.smtpUrl),
    );
    return {
      async send(mail) {
        await transport.sendMail({ from: config.mailFrom, ...mail });
      },
      close: () => transport.close(),
    };
  }
  const outbox: OutboxItem[] = [];
  return {
    outbox,
    async send(mail) {
      const links = [...mail.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
      outbox.unshift({ ...mail, links, sent_at: new Date().toISOString() });
      outbox.length = Math.min(outbox.length, OUTBOX_LIMIT);
      log.info({ to: mail.to, subject: mail.subject, links }, 'e-mail guardado na caixa de saída de desenvolvimento');
    },
    close: () => {},
  };
}

const withPool = (url: string) => `${url}${url.includes('?') ? '&' : '?'}pool=true`;
