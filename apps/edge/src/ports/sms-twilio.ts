import type { SmsMessage, SmsSender } from "./messaging.ts";
import { type ProviderHttp, postToProvider } from "./provider-post.ts";

export interface TwilioOptions extends ProviderHttp {
  accountSid: string;
  authToken: string;
  /** The sending number in E.164 (for WhatsApp, a WhatsApp-enabled number). */
  from: string;
  baseUrl?: string;
}

/** Sends SMS and WhatsApp messages through Twilio's Messages API; plain fetch, so it runs on Node, Deno and Workers. */
export function twilioSms({
  accountSid,
  authToken,
  from,
  baseUrl = "https://api.twilio.com",
  ...http
}: TwilioOptions): SmsSender {
  const url = `${baseUrl.replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const auth = `Basic ${btoa(`${accountSid}:${authToken}`)}`;
  return {
    kind: "twilio",
    async send({ to, channel, text }: SmsMessage) {
      const prefix = channel === "whatsapp" ? "whatsapp:" : "";
      await postToProvider(
        url,
        {
          headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ To: `${prefix}${to}`, From: `${prefix}${from}`, Body: text }),
        },
        { provider: "Twilio", ...http },
      );
    },
  };
}
