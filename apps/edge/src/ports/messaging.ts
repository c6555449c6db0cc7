import { type Db, schema } from "@booth/db";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}
export interface SmsMessage {
  to: string;
  channel: "sms" | "whatsapp";
  text: string;
}

export interface Mailer {
  readonly kind: string;
  send(message: EmailMessage): Promise<void>;
}
export interface SmsSender {
  readonly kind: string;
  send(message: SmsMessage): Promise<void>;
}

/** Without a provider, messages land in the outbox table, where tests and the CLI read them. */
export const outboxMailer = (db: Db): Mailer => ({
  kind: "outbox",
  async send({ to, subject, text }) {
    await db.insert(schema.outbox).values({ channel: "email", to, subject, body: text });
  },
});

export const outboxSms = (db: Db): SmsSender => ({
  kind: "outbox",
  async send({ to, channel, text }) {
    await db.insert(schema.outbox).values({ channel, to, body: text });
  },
});
