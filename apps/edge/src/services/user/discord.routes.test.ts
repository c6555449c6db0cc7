import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FAKE_CREDENTIALS, type FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp } from "../../testing.ts";
import { DISCORD_MESSAGES } from "./discord.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

const U = "/api/user-service";
let n = 0;
const discordUser = (extra: Partial<{ email: string | null; verified: boolean; global_name: string }> = {}) => {
  n++;
  return { id: `${1000000 + n}`, username: `raver${n}`, email: `raver${n}@discord.test`, verified: true, ...extra };
};

async function discordLinks(userUuid: string) {
  return t.db
    .select()
    .from(schema.providerAccounts)
    .where(and(eq(schema.providerAccounts.userUuid, userUuid), eq(schema.providerAccounts.provider, "discord")));
}

describe("POST /auth/discord-auth", () => {
  it("creates an account on first sign-in and signs the same account in afterwards", async () => {
    const person = discordUser({ global_name: "DJ Raver" });
    const first = await t.api().user.POST("/auth/discord-auth", {
      body: { code: fake.discordCode(person), redirectUri: "https://booth.test/discord" },
    });
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({
      tokenType: "Bearer",
      isNewUser: true,
      user: { email: person.email, roles: ["user"], profile: { nickname: "DJ Raver" } },
    });
    // The code went to Discord with Booth's credentials and the redirect URI.
    const exchange = fake.requests.findLast((r) => r.path === "/discord/oauth2/token");
    expect(exchange?.form).toMatchObject({
      grant_type: "authorization_code",
      redirect_uri: "https://booth.test/discord",
    });
    expect(exchange?.headers.authorization).toBe(
      `Basic ${btoa(`${FAKE_CREDENTIALS.discord.id}:${FAKE_CREDENTIALS.discord.secret}`)}`,
    );
    // The Booth token works.
    const session = await t.api(ok(first).accessToken).user.GET("/auth/session");
    expect(session.data?.user.uuid).toBe(ok(first).user.uuid);
    // Discord verified the email, so it is verified here too.
    expect(first.data?.user.verifiedAt).not.toBeNull();

    const again = await t.api().user.POST("/auth/discord-auth", { body: { code: fake.discordCode(person) } });
    expect(again.response.status).toBe(200);
    expect(again.data).toMatchObject({ isNewUser: false, user: { uuid: ok(first).user.uuid } });
    expect(await discordLinks(ok(first).user.uuid)).toHaveLength(1);
  });

  it("signs in with an access token Discord issued to Booth (the activity), and refuses one issued to another app", async () => {
    const person = discordUser();
    const code = fake.discordCode(person);
    const exchanged = await t.api().user.POST("/auth/exchange-code", { body: { code } });
    expect(exchanged.response.status).toBe(200);
    expect(exchanged.data?.accessToken).toMatch(/^discord-access-/);
    const signedIn = await t
      .api()
      .user.POST("/auth/discord-auth", { body: { accessToken: ok(exchanged).accessToken } });
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.data?.isNewUser).toBe(true);

    const victim = discordUser();
    fake.discordUsers.set(victim.id, victim);
    fake.foreignDiscordTokens.set("stolen-token", victim.id);
    const foreign = await t.api().user.POST("/auth/discord-auth", { body: { accessToken: "stolen-token" } });
    expectRefusal(foreign, 400, DISCORD_MESSAGES.foreignToken);
    expect(await t.userByEmail(String(victim.email))).toBeUndefined();
  });

  it("never takes over an existing account by its email: asks to link instead", async () => {
    const existing = await t.createUser();
    const person = discordUser({ email: existing.email });
    const res = await t.api().user.POST("/auth/discord-auth", { body: { code: fake.discordCode(person) } });
    expectRefusal(res, 409, DISCORD_MESSAGES.emailTaken);
    expect(await discordLinks(existing.user.uuid)).toHaveLength(0);
  });

  it("makes an account without email when Discord's email is not verified (and the account is not verified)", async () => {
    const person = discordUser({ verified: false });
    const res = await t.api().user.POST("/auth/discord-auth", { body: { code: fake.discordCode(person) } });
    expect(res.response.status).toBe(200);
    expect(res.data?.user).toMatchObject({ email: null, verifiedAt: null });
  });

  it("refuses a banned account", async () => {
    const person = discordUser();
    const first = await t.api().user.POST("/auth/discord-auth", { body: { code: fake.discordCode(person) } });
    await t.db
      .insert(schema.sanctions)
      .values({ userUuid: ok(first).user.uuid, type: "ban", createdAt: t.clock.now() });
    await t.accountChanged(ok(first).user.uuid);
    const res = await t.api().user.POST("/auth/discord-auth", { body: { code: fake.discordCode(person) } });
    expectRefusal(res, 403, "This account is banned.");
  });

  it("answers 400 for a code Discord refuses and for bad input, creating nothing", async () => {
    const before = (await t.db.select().from(schema.users)).length;
    const refused = await t.api().user.POST("/auth/discord-auth", { body: { code: "not-a-real-code" } });
    expectRefusal(refused, 400, "Discord refused the authorization code (invalid_grant).");
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { code: "" },
      { code: "a", accessToken: "b" },
      { code: "a", redirectUri: "nope" },
      { x: 1 },
    ]) {
      const res = await t.request("POST", `${U}/auth/discord-auth`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.db.select().from(schema.users)).length).toBe(before);
  });

  it("answers 502 when Discord fails, and 503 naming the settings when Discord is not configured", async () => {
    fake.control.failWith = 500;
    try {
      const res = await t.api().user.POST("/auth/discord-auth", { body: { code: "any" } });
      expectRefusal(res, 502, "Discord answered 500.");
    } finally {
      fake.control.failWith = null;
    }
    const off = await bare.api().user.POST("/auth/discord-auth", { body: { code: "any" } });
    expectRefusal(off, 503, "Discord is not configured: set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.");
  });
});

describe("POST /auth/exchange-code", () => {
  it("gives Discord's access token for a code, without making an account", async () => {
    const person = discordUser();
    const res = await t.api().user.POST("/auth/exchange-code", { body: { code: fake.discordCode(person) } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ tokenType: "Bearer", scope: expect.any(String) });
    expect(res.data?.expiresAt).toBe(new Date(t.clock.now().getTime() + 3600_000).toISOString());
    expect((res.data as Record<string, unknown> | undefined)?.refreshToken).toBeUndefined();
    expect(await t.userByEmail(String(person.email))).toBeUndefined();
  });

  it("sends Discord no redirect URI for the Activity's code, even with DISCORD_REDIRECT_URI set", async () => {
    const integrations = t.deps.config.integrations;
    t.deps.config.integrations = { ...integrations, discordRedirectUri: "https://booth.test/discord" };
    try {
      const res = await t.api().user.POST("/auth/exchange-code", { body: { code: fake.discordCode(discordUser()) } });
      expect(res.response.status).toBe(200);
      const sent = fake.requests.findLast((r) => r.path === "/discord/oauth2/token");
      expect(sent?.form).toMatchObject({ grant_type: "authorization_code" });
      expect(sent?.form.redirect_uri).toBeUndefined();
    } finally {
      t.deps.config.integrations = integrations;
    }
  });

  it("answers 400 for a refused code or bad input, 503 unconfigured", async () => {
    expect((await t.api().user.POST("/auth/exchange-code", { body: { code: "nope" } })).response.status).toBe(400);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect((await t.request("POST", "/api/user-service/auth/exchange-code", { body: {} })).status).toBe(400);
    const off = await bare.api().user.POST("/auth/exchange-code", { body: { code: "x" } });
    expect(off.response.status).toBe(503);
  });
});

describe("POST /auth/link-discord", () => {
  it("links a Discord account to the caller, who can then sign in with Discord", async () => {
    const me = await t.createUser();
    const person = discordUser({ email: me.email });
    const res = await t.api(me.token).user.POST("/auth/link-discord", { body: { code: fake.discordCode(person) } });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ discordUserId: person.id, username: person.username, displayName: person.username });
    const signIn = await t.api().user.POST("/auth/discord-auth", { body: { code: fake.discordCode(person) } });
    expect(signIn.data).toMatchObject({ isNewUser: false, user: { uuid: me.user.uuid } });
  });

  it("refuses a Discord account linked to someone else, and callers without a user token", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const person = discordUser();
    await t.api(owner.token).user.POST("/auth/link-discord", { body: { code: fake.discordCode(person) } });
    const res = await t.api(other.token).user.POST("/auth/link-discord", { body: { code: fake.discordCode(person) } });
    expectRefusal(res, 409, DISCORD_MESSAGES.linkedElsewhere);
    expect(await discordLinks(other.user.uuid)).toHaveLength(0);
    expect((await t.api().user.POST("/auth/link-discord", { body: { code: "x" } })).response.status).toBe(401);
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    expect((await t.api(guest).user.POST("/auth/link-discord", { body: { code: "x" } })).response.status).toBe(401);
  });

  it("replaces the caller's earlier Discord link", async () => {
    const me = await t.createUser();
    const first = discordUser();
    const second = discordUser();
    await t.api(me.token).user.POST("/auth/link-discord", { body: { code: fake.discordCode(first) } });
    await t.api(me.token).user.POST("/auth/link-discord", { body: { code: fake.discordCode(second) } });
    const links = await discordLinks(me.user.uuid);
    expect(links.map((l) => l.providerUserId)).toEqual([second.id]);
  });

  it("answers 503 unconfigured", async () => {
    const me = await bare.createUser();
    const res = await bare.api(me.token).user.POST("/auth/link-discord", { body: { code: "x" } });
    expect(res.response.status).toBe(503);
    expect(res.error?.message).toContain("DISCORD_CLIENT_ID");
  });
});
