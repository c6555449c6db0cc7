import type { EmailMessage, Mailer } from "./messaging.ts";
import { postToProvider } from "./provider-post.ts";

export interface ResendOptions {
  /** A Resend API key (`re_...`). */
  apiKey: string;
  /** The sender, e.g. `Booth <no-reply@booth.example>`; its domain must be verified at Resend. */
  from: string;
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** A provider that does not answer must not hold the request that sends the email forever. */
  timeoutMs?: number;
}

/**
 * Sends email through Resend's REST API (POST /emails). Plain fetch, so the same code runs on Node, Deno and
 * Workers. A refused message throws, naming the status and Resend's own explanation (never the key).
 */
export function resendMailer({
  apiKey,
  from,
  baseUrl = "https://api.resend.com",
  fetch = globalThis.fetch,
  timeoutMs = 10_000,
}: ResendOptions): Mailer {
  if (!apiKey) throw new Error("resendMailer: an API key is required");
  if (!from) throw new Error("resendMailer: a sender (from) is required");
  const url = `${baseUrl.replace(/\/+$/, "")}/emails`;
  return {
    kind: "resend",
    async send({ to, subject, text }: EmailMessage) {
      await postToProvider(
        fetch,
        url,
        {
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            // Resend refuses requests without a User-Agent; not every runtime sends one.
            "user-agent": "booth-edge",
          },
          body: JSON.stringify({ from, to: [to], subject, text }),
        },
        { provider: "Resend", timeoutMs, statusText: true },
      );
    },
  };
}
