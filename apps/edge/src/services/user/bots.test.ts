import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const botOf = (token: string) =>
  t.request("POST", `${P}/users/sign-up-bot`, {
    token,
    body: { nickname: `bot${crypto.randomUUID().slice(0, 6)}` },
  });

describe("bots", () => {
  it("are verified when their owner is, so they may chat in public rooms; not otherwise", async () => {
    const verified = await t.createUser();
    const made = await botOf(verified.token);
    expect(made.status).toBe(201);
    const bot = await firstRow(t.db, schema.users, eq(schema.users.uuid, made.body.user.uuid));
    expect(bot?.verifiedAt).toBeInstanceOf(Date);
    expect(bot?.botOwnerUuid).toBe(verified.user.uuid);
    const service = await t
      .api(await t.serviceToken())
      .user.GET("/profile/{id}/service", { params: { path: { id: made.body.user.uuid } } });
    expect(service.data?.verifiedAt).toBeTruthy();

    const unverified = await t.createUser({ verified: false });
    const theirs = await botOf(unverified.token);
    expect(theirs.status).toBe(201);
    const other = await firstRow(t.db, schema.users, eq(schema.users.uuid, theirs.body.user.uuid));
    expect(other?.verifiedAt).toBeNull();
    // Nobody signs up a bot without signing in.
    expect((await t.api().user.POST("/users/sign-up-bot", { body: { nickname: "nobodys" } })).response.status).toBe(
      401,
    );
  });
});
