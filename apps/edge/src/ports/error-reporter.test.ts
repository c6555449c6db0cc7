import { createServer } from "node:http";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing.ts";
import { sentryReporter } from "./error-reporter.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("error reporting", () => {
  it("POST /sentry-testing puts a test error in the outbox, for admins only", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const user = await t.createUser();
    const res = await t.request("POST", "/api/upload-service/sentry-testing", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.reporter).toBe("outbox");
    const [row] = await t.db.select().from(schema.errorReports).where(eq(schema.errorReports.id, res.body.reportId));
    expect(row).toMatchObject({ service: "upload", message: "Test error from the upload service, sent by an admin" });
    expect((await t.request("POST", "/api/upload-service/sentry-testing", { token: user.token })).status).toBe(403);
    expect((await t.request("POST", "/api/upload-service/sentry-testing")).status).toBe(401);
  });

  it("the Sentry adapter posts an envelope to the DSN's project with its key", async () => {
    const seen: { url?: string; auth?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        seen.push({ url: req.url, auth: String(req.headers["x-sentry-auth"]), body });
        res.end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const reporter = sentryReporter(`http://publickey@127.0.0.1:${(server.address() as { port: number }).port}/42`);
      const id = await reporter.report(new Error("boom"), { service: "upload" });
      expect(seen[0]?.url).toBe("/api/42/envelope/");
      expect(seen[0]?.auth).toContain("sentry_key=publickey");
      const [header, item, event] = (seen[0]?.body ?? "").split("\n").map((l) => JSON.parse(l));
      expect(header.event_id).toBe(id);
      expect(item.type).toBe("event");
      expect(event.exception.values[0].value).toBe("boom");
      expect(() => sentryReporter("http://127.0.0.1/")).toThrow(/SENTRY_DSN/);
    } finally {
      server.close();
    }
  });
});
