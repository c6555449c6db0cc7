import type { EmailMessage, Mailer } from "./messaging.ts";
import { type ProviderHttp, postToProvider } from "./provider-post.ts";

export interface ResendOptions extends ProviderHttp {
  /** A Resend API key (`re_...`). */
  apiKey: string;
  /** The sender, e.g. `Booth <no-reply@booth.example>`; its domain must be verified at Resend. */
  from: string;
  baseUrl?: string;
}

/**
 * Sends email through Resend's REST API (POST /emails). Plain fetch, so the same code runs on Node, Deno and
 * Workers. A refused message throws, naming the status and Resend's own explanation (never the key).
 */
export function resendMailer({ apiKey, from, baseUrl = "https://api.resend.com", ...http }: ResendOptions): Mailer {
  if (!apiKey) throw new Error("resendMailer: an API key is required");
  if (!from) throw new Error("resendMailer: a sender (from) is required");
  const url = `${baseUrl.replace(/\/+$/, "")}/emails`;
  return {
    kind: "resend",
    async send({ to, subject, text }: EmailMessage) {
      await postToProvider(
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
        { provider: "Resend", statusText: true, ...http },
      );
    },
  };
}
