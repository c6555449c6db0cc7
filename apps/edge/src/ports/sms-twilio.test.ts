import { createServer, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { listenForTests, requestText } from "../testing/local-server.ts";
import { twilioSms } from "./sms-twilio.ts";

const received: { method: string; url: string; auth: string; type: string; form: URLSearchParams }[] = [];
let status = 201;
const server = createServer(async (req: IncomingMessage, res) => {
  const body = await requestText(req);
  received.push({
    method: req.method ?? "",
    url: req.url ?? "",
    auth: req.headers.authorization ?? "",
    type: req.headers["content-type"] ?? "",
    form: new URLSearchParams(body),
  });
  res.statusCode = status;
  if (status >= 500) res.end();
  else res.end(JSON.stringify(status < 300 ? { sid: "SM1" } : { message: "The 'To' number is not valid." }));
});
let baseUrl = "";
listenForTests(server, (url) => (baseUrl = url));

describe("Twilio SMS adapter", () => {
  it("posts the message form to the account's Messages resource with basic auth", async () => {
    const sms = twilioSms({ accountSid: "AC123", authToken: "secret", from: "+15005550006", baseUrl });
    await sms.send({ to: "+447400123456", channel: "sms", text: "Your code is 123456" });
    const [req] = received.splice(0);
    expect(req?.method).toBe("POST");
    expect(req?.url).toBe("/2010-04-01/Accounts/AC123/Messages.json");
    expect(req?.type).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req?.auth).toBe(`Basic ${btoa("AC123:secret")}`);
    expect(Object.fromEntries(req?.form ?? [])).toEqual({
      To: "+447400123456",
      From: "+15005550006",
      Body: "Your code is 123456",
    });
  });

  it("prefixes both numbers for WhatsApp", async () => {
    const sms = twilioSms({ accountSid: "AC123", authToken: "secret", from: "+15005550006", baseUrl });
    await sms.send({ to: "+447400123456", channel: "whatsapp", text: "hi" });
    const [req] = received.splice(0);
    expect(req?.form.get("To")).toBe("whatsapp:+447400123456");
    expect(req?.form.get("From")).toBe("whatsapp:+15005550006");
  });

  it("throws with Twilio's status and reason when refused", async () => {
    status = 400;
    const sms = twilioSms({ accountSid: "AC123", authToken: "secret", from: "+15005550006", baseUrl });
    await expect(sms.send({ to: "+1", channel: "sms", text: "x" })).rejects.toThrow(/Twilio answered 400.*not valid/);
    status = 201;
  });

  it("names the status when the answer has no body, and accepts a base URL with a trailing slash", async () => {
    status = 503;
    received.length = 0;
    const sms = twilioSms({ accountSid: "AC9", authToken: "t", from: "+15005550006", baseUrl: `${baseUrl}/` });
    await expect(sms.send({ to: "+447400123456", channel: "sms", text: "x" })).rejects.toThrow(/^Twilio answered 503$/);
    expect(received.splice(0).map((r) => r.url)).toEqual(["/2010-04-01/Accounts/AC9/Messages.json"]);
    status = 201;
  });
});
