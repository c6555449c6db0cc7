import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../deps.ts";
import { DEFAULT_GHOST_UID } from "../../ports/integrations.ts";
import { FAKE_CREDENTIALS, type FakeProviders } from "../../testing/fake-providers.ts";
import { startProviderApps } from "../../testing/provider-apps.ts";
import { createTestApp, type TestApp } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ fake, t, bare, close } = await startProviderApps({ bare: true }));
});
afterAll(() => close());

const U = "/api/user-service";

describe("GET /comet-chat/user-token", () => {
  it("creates the caller's CometChat user (nickname as name) and answers an auth token", async () => {
    const me = await t.createUser({ nickname: "Night Owl" });
    const res = await t.request("GET", `${U}/comet-chat/user-token`, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      authToken: expect.stringContaining(me.user.uuid),
      uid: me.user.uuid,
      appId: FAKE_CREDENTIALS.cometchat.appId,
      region: null,
    });
    expect(fake.chat.users.get(me.user.uuid)?.name).toBe("Night Owl");
    const create = fake.requests.findLast((r) => r.path === "/cometchat/users");
    expect(create?.headers.apikey).toBe(FAKE_CREDENTIALS.cometchat.apiKey);
    // A second token for a user who already exists.
    const again = await t.request("GET", `${U}/comet-chat/user-token`, { token: me.token });
    expect(again.status).toBe(200);
    expect(again.body.authToken).not.toBe(res.body.authToken);
  });

  it("refuses callers without a user token", async () => {
    expect((await t.request("GET", `${U}/comet-chat/user-token`)).status).toBe(401);
    const guest = (await t.request("GET", `${U}/auth/guest`)).body.accessToken;
    expect((await t.request("GET", `${U}/comet-chat/user-token`, { token: guest })).status).toBe(401);
  });

  it("answers 502 when CometChat fails or refuses the key, 503 naming the settings when unconfigured", async () => {
    const me = await t.createUser();
    fake.control.failWith = 500;
    try {
      const res = await t.request("GET", `${U}/comet-chat/user-token`, { token: me.token });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe("CometChat answered 500.");
    } finally {
      fake.control.failWith = null;
    }
    const wrongKey = await createTestApp({
      config: { ...defaultConfig, integrations: { ...fake.integrations, cometchatApiKey: "stale" } },
    });
    try {
      const user = await wrongKey.createUser();
      const res = await wrongKey.request("GET", `${U}/comet-chat/user-token`, { token: user.token });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe("CometChat refused Booth's API key.");
    } finally {
      await wrongKey.close();
    }
    const user = await bare.createUser();
    const off = await bare.request("GET", `${U}/comet-chat/user-token`, { token: user.token });
    expect(off.status).toBe(503);
    expect(off.body.message).toBe("CometChat is not configured: set COMETCHAT_APP_ID and COMETCHAT_API_KEY.");
  });

  it("needs a region or a base URL besides the app id and key", async () => {
    const noRegion = await createTestApp({
      config: { ...defaultConfig, integrations: { cometchatAppId: "a", cometchatApiKey: "k" } },
    });
    try {
      const user = await noRegion.createUser();
      const res = await noRegion.request("GET", `${U}/comet-chat/user-token`, { token: user.token });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe("CometChat is not configured: set COMETCHAT_REGION (or COMETCHAT_BASE_URL).");
    } finally {
      await noRegion.close();
    }
  });
});

describe("GET /comet-chat/ghost-token", () => {
  it("gives guests the shared ghost user's token, made once and then reused", async () => {
    const guest = (await t.request("GET", `${U}/auth/guest`)).body.accessToken;
    const first = await t.request("GET", `${U}/comet-chat/ghost-token`, { token: guest });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ uid: DEFAULT_GHOST_UID, appId: FAKE_CREDENTIALS.cometchat.appId });
    expect(fake.chat.users.has(DEFAULT_GHOST_UID)).toBe(true);
    const me = await t.createUser();
    const second = await t.request("GET", `${U}/comet-chat/ghost-token`, { token: me.token });
    expect(second.body.authToken).toBe(first.body.authToken);
  });

  it("answers 401 without a token and 503 unconfigured", async () => {
    expect((await t.request("GET", `${U}/comet-chat/ghost-token`)).status).toBe(401);
    const guest = (await bare.request("GET", `${U}/auth/guest`)).body.accessToken;
    expect((await bare.request("GET", `${U}/comet-chat/ghost-token`, { token: guest })).status).toBe(503);
  });
});

describe("POST /comet-chat/create-users", () => {
  it("creates the CometChat users of the accounts named (services), telling which existed or are unknown", async () => {
    const a = await t.createUser({ nickname: "Alpha" });
    const b = await t.createUser({ nickname: "Bravo" });
    await t.request("GET", `${U}/comet-chat/user-token`, { token: b.token });
    const unknown = crypto.randomUUID();
    const res = await t.request("POST", `${U}/comet-chat/create-users`, {
      token: await t.serviceToken(),
      body: { userUuids: [a.user.uuid, b.user.uuid, unknown] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: [a.user.uuid], existing: [b.user.uuid], notFound: [unknown] });
    expect(fake.chat.users.get(a.user.uuid)?.name).toBe("Alpha");
  });

  it("refuses users who are not admins, callers without a token, and bad input", async () => {
    const me = await t.createUser();
    const body = { userUuids: [me.user.uuid] };
    expect((await t.request("POST", `${U}/comet-chat/create-users`, { token: me.token, body })).status).toBe(403);
    expect((await t.request("POST", `${U}/comet-chat/create-users`, { body })).status).toBe(401);
    const service = await t.serviceToken();
    for (const bad of [{}, { userUuids: [] }, { userUuids: ["x"] }]) {
      const res = await t.request("POST", `${U}/comet-chat/create-users`, { token: service, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const off = await bare.request("POST", `${U}/comet-chat/create-users`, { token: await bare.serviceToken(), body });
    expect(off.status).toBe(503);
  });
});
