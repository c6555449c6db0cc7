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

/**
 * Where a person's code goes: a provider (the person's inbox or phone), the edge's log and the outbox (the embedded
 * default, where the person running the instance reads it), or the outbox alone (a production instance without a
 * provider, where an admin reads it with `booth outbox`).
 */
export const Delivery = { provider: "provider", log: "log", outbox: "outbox" } as const;
export type Delivery = (typeof Delivery)[keyof typeof Delivery];

export const deliveryOf = (sender: Mailer | SmsSender): Delivery =>
  sender.kind === Delivery.log || sender.kind === Delivery.outbox ? sender.kind : Delivery.provider;

/**
 * The outbox, and each message printed as one block, so whoever started the instance can read a newcomer's code: with
 * no provider, the outbox alone is a table nobody looks at.
 */
export function printingOutbox<T extends Mailer | SmsSender>(outbox: T, print: (text: string) => void): T {
  return {
    kind: Delivery.log,
    async send(message: EmailMessage | SmsMessage) {
      await outbox.send(message as never);
      print(messageBlock(message));
    },
  } as T;
}

/** One message as the log shows it: who it is for, over what, and its whole text, indented. */
export function messageBlock(message: EmailMessage | SmsMessage) {
  const channel = "channel" in message ? (message.channel === "whatsapp" ? "WhatsApp" : "SMS") : "Email";
  const head = `${channel} to ${message.to} (not sent: no ${channel === "Email" ? "email" : "SMS"} provider is configured)`;
  const subject = "subject" in message ? [`  Subject: ${message.subject}`] : [];
  const text = message.text.split("\n").map((line) => `  ${line}`);
  return [head, ...subject, ...text].join("\n");
}

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
