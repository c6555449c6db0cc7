import { describe, expect, it } from "vitest";
import { type AppDeps, defaultConfig } from "../../deps.ts";
import { DEFAULT_GHOST_UID } from "../../ports/integrations.ts";
import { FAKE_CREDENTIALS, type FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp, withTestApp } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

const U = "/api/user-service";
/** A test app of its own configured with `integrations` (and no other), for one test. */
const withIntegrations = (integrations: AppDeps["config"]["integrations"], use: (app: TestApp) => Promise<void>) =>
  withTestApp({ config: { ...defaultConfig, integrations } }, use);
/** A new user of `app` asks it for a CometChat user token. */
const userTokenOf = async (app: TestApp) => {
  const user = await app.createUser();
  return app.request("GET", `${U}/comet-chat/user-token`, { token: user.token });
};

describe("GET /comet-chat/user-token", () => {
  it("creates the caller's CometChat user (nickname as name) and answers an auth token", async () => {
    const me = await t.createUser({ nickname: "Night Owl" });
    const res = await t.api(me.token).user.GET("/comet-chat/user-token");
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({
      authToken: expect.stringContaining(me.user.uuid),
      uid: me.user.uuid,
      appId: FAKE_CREDENTIALS.cometchat.appId,
      region: null,
    });
    expect(fake.chat.users.get(me.user.uuid)?.name).toBe("Night Owl");
    const create = fake.requests.findLast((r) => r.path === "/cometchat/users");
    expect(create?.headers.apikey).toBe(FAKE_CREDENTIALS.cometchat.apiKey);
    // A second token for a user who already exists.
    const again = await t.api(me.token).user.GET("/comet-chat/user-token");
    expect(again.response.status).toBe(200);
    expect(again.data?.authToken).not.toBe(ok(res).authToken);
  });

  it("refuses callers without a user token", async () => {
    expect((await t.api().user.GET("/comet-chat/user-token")).response.status).toBe(401);
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    expect((await t.api(guest).user.GET("/comet-chat/user-token")).response.status).toBe(401);
  });

  it("answers 502 when CometChat fails or refuses the key, 503 naming the settings when unconfigured", async () => {
    const me = await t.createUser();
    fake.control.failWith = 500;
    try {
      const res = await t.api(me.token).user.GET("/comet-chat/user-token");
      expectRefusal(res, 502, "CometChat answered 500.");
    } finally {
      fake.control.failWith = null;
    }
    await withIntegrations({ ...fake.integrations, cometchatApiKey: "stale" }, async (wrongKey) => {
      expectRefusal(await userTokenOf(wrongKey), 502, "CometChat refused Booth's API key.");
    });
    const user = await bare.createUser();
    const off = await bare.api(user.token).user.GET("/comet-chat/user-token");
    expectRefusal(off, 503, "CometChat is not configured: set COMETCHAT_APP_ID and COMETCHAT_API_KEY.");
  });

  it("needs a region or a base URL besides the app id and key", async () => {
    await withIntegrations({ cometchatAppId: "a", cometchatApiKey: "k" }, async (noRegion) => {
      const refused = await userTokenOf(noRegion);
      expectRefusal(refused, 503, "CometChat is not configured: set COMETCHAT_REGION (or COMETCHAT_BASE_URL).");
    });
  });
});

describe("GET /comet-chat/ghost-token", () => {
  it("gives guests the shared ghost user's token, made once and then reused", async () => {
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    const first = await t.api(guest).user.GET("/comet-chat/ghost-token");
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ uid: DEFAULT_GHOST_UID, appId: FAKE_CREDENTIALS.cometchat.appId });
    expect(fake.chat.users.has(DEFAULT_GHOST_UID)).toBe(true);
    const me = await t.createUser();
    const second = await t.api(me.token).user.GET("/comet-chat/ghost-token");
    expect(second.data?.authToken).toBe(ok(first).authToken);
  });

  it("answers 401 without a token and 503 unconfigured", async () => {
    expect((await t.api().user.GET("/comet-chat/ghost-token")).response.status).toBe(401);
    const guest = ok(await bare.api().user.GET("/auth/guest")).accessToken;
    expect((await bare.api(guest).user.GET("/comet-chat/ghost-token")).response.status).toBe(503);
  });
});

describe("POST /comet-chat/create-users", () => {
  it("creates the CometChat users of the accounts named (services), telling which existed or are unknown", async () => {
    const a = await t.createUser({ nickname: "Alpha" });
    const b = await t.createUser({ nickname: "Bravo" });
    await t.api(b.token).user.GET("/comet-chat/user-token");
    const unknown = crypto.randomUUID();
    const res = await t
      .api(await t.serviceToken())
      .user.POST("/comet-chat/create-users", { body: { userUuids: [a.user.uuid, b.user.uuid, unknown] } });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ created: [a.user.uuid], existing: [b.user.uuid], notFound: [unknown] });
    expect(fake.chat.users.get(a.user.uuid)?.name).toBe("Alpha");
  });

  it("refuses users who are not admins, callers without a token, and bad input", async () => {
    const me = await t.createUser();
    const body = { userUuids: [me.user.uuid] };
    expect((await t.api(me.token).user.POST("/comet-chat/create-users", { body })).response.status).toBe(403);
    expect((await t.api().user.POST("/comet-chat/create-users", { body })).response.status).toBe(401);
    const service = await t.serviceToken();
    // Raw: malformed input, which the typed client cannot send.
    for (const bad of [{}, { userUuids: [] }, { userUuids: ["x"] }]) {
      const res = await t.request("POST", `${U}/comet-chat/create-users`, { token: service, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const off = await bare.api(await bare.serviceToken()).user.POST("/comet-chat/create-users", { body });
    expect(off.response.status).toBe(503);
  });
});
