import { describe, expect, it } from "vitest";
import { ok } from "./api.ts";
import { openTestApp } from "./open-test-app.ts";

const t = openTestApp();

describe("the typed test client", () => {
  it("answers the data of a success, signed with the caller's token", async () => {
    const { user, token } = await t.createUser();
    const made = await t.api(token).merch.POST("/api/v1/token-accounts");
    expect(made.response.status).toBe(201);
    expect(made.data).toMatchObject({ userUuid: user.uuid, balance: 0 });
    expect(ok(await t.api(token).merch.GET("/api/v1/token-accounts/self")).id).toBe(made.data?.id);
  });

  it("answers a refusal as an error with its status, without throwing", async () => {
    const anonymous = await t.api().merch.GET("/api/v1/token-accounts/self");
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.data).toBeUndefined();
    expect(anonymous.error?.message).toBeTruthy();
    const { token } = await t.createUser();
    const missing = await t.api(token).merch.GET("/api/v1/token-accounts/self");
    expect(missing.response.status).toBe(404);
    expect(missing.error?.message).toBe("We were unable to find your token account. Please try again.");
  });

  it("ok() fails the step that was refused, with the status and the server's message", async () => {
    const { token } = await t.createUser();
    await expect(async () => ok(await t.api(token).merch.GET("/api/v1/token-accounts/self"))).rejects.toThrow(
      /^the edge answered 404: .*unable to find your token account/,
    );
  });

  it("sends query parameters, path parameters and headers", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const api = t.api(admin.token);
    const made = ok(
      await api.merch.POST("/api/v1/token-bundles", { body: { productId: "prod_q", name: "Query", tokens: 7 } }),
    );
    const count = await t
      .api()
      .merch.GET("/api/v1/token-bundles/count", { params: { query: { productId: "prod_q" } } });
    expect(count.data).toEqual({ count: 1 });
    const one = await t.api().merch.GET("/api/v1/token-bundles/{id}", { params: { path: { id: made.id } } });
    expect(one.data?.name).toBe("Query");
    const u = await t.createUser();
    const account = ok(await t.api(u.token).merch.POST("/api/v1/token-accounts"));
    const service = t.api(await t.serviceToken());
    const credit = (key: string) =>
      service.merch.POST("/api/v1/token-accounts/{accountId}/credit", {
        params: { path: { accountId: account.id } },
        body: { amount: 3, reason: "header test" },
        headers: { "idempotency-key": key },
      });
    const first = ok(await credit("k-1"));
    expect(ok(await credit("k-1")).transaction.id).toBe(first.transaction.id);
    expect(ok(await credit("k-2")).account.balance).toBe(6);
  });
});
