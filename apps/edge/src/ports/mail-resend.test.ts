import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeServer, listenLocally, requestText } from "../testing/local-server.ts";
import { resendMailer } from "./mail-resend.ts";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local stand-in for Resend: records each request and answers what the test scripted. */
let server: Server;
let baseUrl = "";
let received: Received[] = [];
let answer: { status: number; body: string; hang?: boolean } = { status: 200, body: '{"id":"em_1"}' };

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await requestText(req);
    received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    if (answer.hang) return; // never answers: the adapter's timeout must end the wait
    res.statusCode = answer.status;
    res.setHeader("content-type", "application/json");
    res.end(answer.body);
  });
  baseUrl = await listenLocally(server);
});
afterAll(async () => {
  server.closeAllConnections();
  await closeServer(server);
});
beforeEach(() => {
  received = [];
  answer = { status: 200, body: '{"id":"em_1"}' };
});

const message = { to: "dj@example.com", subject: "Verify your email for Booth", text: "Your code is 123456." };

describe("resendMailer", () => {
  it("POSTs the message as JSON to /emails with the API key as a bearer token", async () => {
    const mailer = resendMailer({ apiKey: "re_test_key", from: "Booth <no-reply@booth.test>", baseUrl });
    expect(mailer.kind).toBe("resend");
    await mailer.send(message);
    expect(received).toHaveLength(1);
    const [req] = received;
    expect(req?.method).toBe("POST");
    expect(req?.url).toBe("/emails");
    expect(req?.headers.authorization).toBe("Bearer re_test_key");
    expect(req?.headers["content-type"]).toMatch(/^application\/json/);
    expect(req?.headers["user-agent"]).toBeTruthy();
    expect(JSON.parse(req?.body ?? "")).toEqual({
      from: "Booth <no-reply@booth.test>",
      to: ["dj@example.com"],
      subject: "Verify your email for Booth",
      text: "Your code is 123456.",
    });
  });

  it("accepts a base URL with a trailing slash", async () => {
    await resendMailer({ apiKey: "k", from: "a@b.test", baseUrl: `${baseUrl}/` }).send(message);
    expect(received[0]?.url).toBe("/emails");
  });

  it("throws an error naming the status (and Resend's reason) when the message is refused", async () => {
    answer = { status: 422, body: '{"statusCode":422,"name":"validation_error","message":"Invalid `to` field."}' };
    const mailer = resendMailer({ apiKey: "re_secret", from: "a@b.test", baseUrl });
    const err = await mailer.send(message).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toMatch(/\b422\b/);
    expect(err?.message).toContain("Invalid `to` field.");
    expect(err?.message).not.toContain("re_secret");

    answer = { status: 500, body: "" };
    await expect(mailer.send(message)).rejects.toThrow(/\b500\b/);
    answer = { status: 401, body: "" };
    await expect(mailer.send(message)).rejects.toThrow(/\b401\b/);
  });

  it("uses the fetch it is given", async () => {
    const seen: string[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };
    await resendMailer({ apiKey: "k", from: "a@b.test", baseUrl, fetch: spy }).send(message);
    expect(seen).toEqual([`${baseUrl}/emails`]);
    expect(received).toHaveLength(1);
  });

  it("gives up on a provider that does not answer", async () => {
    answer = { status: 200, body: "", hang: true };
    const mailer = resendMailer({ apiKey: "k", from: "a@b.test", baseUrl, timeoutMs: 200 });
    await expect(mailer.send(message)).rejects.toThrow();
    expect(received).toHaveLength(1);
  });

  it("refuses to be built without a key or a sender", () => {
    expect(() => resendMailer({ apiKey: "", from: "a@b.test" })).toThrow(/API key/);
    expect(() => resendMailer({ apiKey: "k", from: "" })).toThrow(/from/);
  });
});
