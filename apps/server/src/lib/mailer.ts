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

/**
 * Real SMTP when SMTP_URL is set. Without it, outside production, mail is kept in a development outbox and its
 * links are printed in the log (the laptop flow: sign up, open the link from the terminal). In production
 * without SMTP nothing is kept and no link is logged: a reset link in a log is an account takeover.
 */
export function createMailer(
  config: { smtpUrl?: string; mailFrom: string; nodeEnv: 'development' | 'production' | 'test' },
  log: FastifyBaseLogger,
): Mailer {
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
  if (config.nodeEnv === 'production') {
    return {
      async send(mail) {
        log.warn({ subject: mail.subject }, 'SMTP_URL não configurado: e-mail não enviado');
      },
      close: () => {},
    };
  }
  const outbox: OutboxItem[] = [];
  return {
    outbox,
    async send(mail) {
      const links = [...mail.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
      outbox.unshift({ ...mail, links, sent_at: new Date().toISOString() });
      outbox.length = Math.min(outbox.length, OUTBOX_LIMIT);
      log.info(
        { to: mail.to, subject: mail.subject, links },
        `e-mail de desenvolvimento para ${mail.to} (${mail.subject}): ${links.join(' ')}`,
      );
    },
    close: () => {},
  };
}

const withPool = (url: string) => `${url}${url.includes('?') ? '&' : '?'}pool=true`;
