import { type Db, schema } from "@booth/db";
import { HttpError } from "../lib/errors.ts";

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

/** A provider that fails answers the caller a 502 naming what could not be sent, never a 500. */
export function reportingFailures<T extends Mailer | SmsSender>(
  sender: T,
  what: string,
  log: (e: Record<string, unknown>) => void,
): T {
  return {
    ...sender,
    kind: sender.kind,
    async send(message: never) {
      try {
        await sender.send(message);
      } catch (err) {
        log({ level: "error", msg: `${what} provider failed`, provider: sender.kind, err: String(err) });
        throw new HttpError(502, `The ${what} could not be sent, please try again later.`);
      }
    },
  } as T;
}
