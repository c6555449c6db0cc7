import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const A = "/api/audit-service";

describe("GET / (the service's description)", () => {
  it("answers the name and version to anyone, whatever token they carry", async () => {
    for (const token of [undefined, "garbage", (await t.createUser()).token]) {
      const res = await t.request("GET", A, { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: "audit-service", version: "1.0.0", docs: `${A}/openapi.json` });
    }
  });

  it("takes no input: a query string changes nothing, and unknown paths below it stay 404", async () => {
    expect((await t.request("GET", A, { query: { x: "1" } })).body.name).toBe("audit-service");
    const unknown = await t.request("GET", `${A}/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`Cannot GET ${A}/nothing-here`);
  });
});

describe("POST /sentry-testing", () => {
  it("reports a test error from the audit service for an admin", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const res = await t.api(admin.token).audit.POST("/sentry-testing");
    expect(res.response.status).toBe(200);
    expect(res.data?.reporter).toBe("outbox");
    const report = await firstRow(t.db, schema.errorReports, eq(schema.errorReports.id, ok(res).reportId));
    expect(report?.service).toBe("audit");
  });

  it("refuses anyone but admins", async () => {
    expect((await t.api().audit.POST("/sentry-testing")).response.status).toBe(401);
    const staff = await t.createUser({ roles: ["user", "staff"] });
    expect((await t.api(staff.token).audit.POST("/sentry-testing")).response.status).toBe(403);
  });

  it("ignores whatever body it is sent", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const res = await t.request("POST", `${A}/sentry-testing`, { token: admin.token, body: "not json" });
    expect(res.status).toBe(200);
  });
});

describe("GET /info-admin/audit-service-status", () => {
  it("answers the service's health", async () => {
    const res = await t.api().audit.GET("/info-admin/audit-service-status");
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ service: "audit", version: "1.0.0", status: "ok", database: "ok" });
  });
});
