import { createServer, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twilioSms } from "./sms-twilio.ts";

const received: { url: string; auth: string; form: URLSearchParams }[] = [];
let status = 201;
const server = createServer((req: IncomingMessage, res) => {
  let body = "";
  req.on("data", (d) => {
    body += d;
  });
  req.on("end", () => {
    received.push({ url: req.url ?? "", auth: req.headers.authorization ?? "", form: new URLSearchParams(body) });
    res.statusCode = status;
    res.end(JSON.stringify(status < 300 ? { sid: "SM1" } : { message: "The 'To' number is not valid." }));
  });
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("Twilio SMS adapter", () => {
  it("posts the message form to the account's Messages resource with basic auth", async () => {
    const sms = twilioSms({ accountSid: "AC123", authToken: "secret", from: "+15005550006", baseUrl });
    await sms.send({ to: "+447400123456", channel: "sms", text: "Your code is 123456" });
    const [req] = received.splice(0);
    expect(req?.url).toBe("/2010-04-01/Accounts/AC123/Messages.json");
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
});
