import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { schema } from "@booth/db";
import { EPHEMERAL } from "@booth/sdk/discord";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readEdgeSettings } from "../../config.ts";
import { defaultConfig } from "../../deps.ts";
import { HttpError } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import type { LiveRooms } from "../../ports/live-rooms.ts";
import { ok, openTestApp, reportPresent, type TestApp, withTestApp } from "../../testing.ts";
import { DISCORD_BOT_MESSAGES } from "./discord-bot.ts";
import { DISCORD_SIGNATURE_MESSAGES } from "./discord-signature.ts";

const R = "/api/room-service";
const GUILD = "223456789012345678";

/** Booth's Discord application's key pair, made here: the app knows the public half, the test signs with the other. */
function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  // The raw 32-byte key is the end of its SPKI encoding; Discord's Developer Portal shows it as hex.
  return { privateKey, publicHex: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex") };
}
const discord = keyPair();
const configured = (liveRooms?: LiveRooms) => ({
  config: { ...defaultConfig, integrations: { discordPublicKey: discord.publicHex } },
  ...(liveRooms ? { liveRooms } : {}),
});
const t = openTestApp(configured());

/**
 * Posts an interaction as Discord does: signed over the timestamp and the raw body, which is indented here, so a
 * check over the body parsed and written again would fail.
 */
function post(
  app: TestApp,
  interaction: unknown,
  options: { key?: KeyObject; at?: Date; headers?: Record<string, string> } = {},
) {
  const body = JSON.stringify(interaction, null, 2);
  const timestamp = String(Math.floor((options.at ?? app.clock.now()).getTime() / 1000));
  const signature = sign(null, Buffer.from(timestamp + body), options.key ?? discord.privateKey).toString("hex");
  return app.app.request(`${R}/discord/interactions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-signature-ed25519": signature,
      "x-signature-timestamp": timestamp,
      ...options.headers,
    },
    body,
  });
}

const MANAGER = String(0x20);
const command = (sub: string, room?: string, extra: Record<string, unknown> = {}) => ({
  type: 2,
  id: "1",
  guild_id: GUILD,
  data: {
    name: "booth",
    type: 1,
    options: [
      { name: sub, type: 1, ...(room === undefined ? {} : { options: [{ name: "room", type: 3, value: room }] }) },
    ],
  },
  member: { permissions: "0", user: { id: "42", username: "raver" } },
  ...extra,
});
type Answer = { type: number; data?: { content: string; flags?: number; components?: unknown[] } };
async function answer(res: Response | Promise<Response>) {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Answer;
}

async function createRoom(app: TestApp, token: string, body: Record<string, unknown> = {}) {
  const res = await app
    .api(token)
    .room.POST("/rooms/infrastructure", { body: { name: `Room ${crypto.randomUUID().slice(0, 8)}`, ...body } });
  return ok(res) as { uuid: string; slug: string; name: string };
}
const guildOf = async (app: TestApp, uuid: string) =>
  (await firstRow(app.db, schema.rooms, eq(schema.rooms.uuid, uuid)))?.discordGuildId;
const song = (trackName: string, artistName: string) => ({
  nowPlaying: { song: { trackName, artistName, duration: 200 }, startTime: 0, endTime: 200_000 },
});

describe("POST /discord/interactions", () => {
  it("answers Discord's PING with PONG", async () => {
    expect(await answer(post(t, { type: 1 }))).toEqual({ type: 1 });
  });

  it("refuses with 401 what Discord did not sign: no signature, another key's, a bad one, an old timestamp", async () => {
    const refusal = async (res: Response | Promise<Response>, message: string) => {
      const r = await res;
      expect(r.status).toBe(401);
      expect((await r.json()).message).toBe(message);
    };
    const raw = (headers: Record<string, string>) =>
      t.app.request(`${R}/discord/interactions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: '{"type":1}',
      });
    await refusal(raw({}), DISCORD_SIGNATURE_MESSAGES.missing);
    await refusal(raw({ "x-signature-ed25519": "ab".repeat(64) }), DISCORD_SIGNATURE_MESSAGES.missing);
    await refusal(post(t, { type: 1 }, { key: keyPair().privateKey }), DISCORD_SIGNATURE_MESSAGES.mismatch);
    await refusal(
      post(t, { type: 1 }, { headers: { "x-signature-ed25519": "zz" } }),
      DISCORD_SIGNATURE_MESSAGES.malformed,
    );
    const old = new Date(t.clock.now().getTime() - 6 * 60_000);
    await refusal(post(t, { type: 1 }, { at: old }), DISCORD_SIGNATURE_MESSAGES.stale);
    // A body over the request path's 16 MB limit is refused as on every route, before any of it is verified.
    const huge = await t.app.request(`${R}/discord/interactions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-signature-ed25519": "ab".repeat(64),
        "x-signature-timestamp": "1",
      },
      body: `{"type":1,"pad":"${"x".repeat(17 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
    // Signed, but not an interaction: a 400 naming the field.
    const bad = await post(t, { type: "ping" });
    expect(bad.status).toBe(400);
  });

  it("/booth rooms lists the guild's rooms with who is in each and what plays", async () => {
    const { owner, raver } = await t.createUsers("owner", "raver");
    const jazz = await createRoom(t, owner.token, { name: "Late Jazz" });
    const disco = await createRoom(t, owner.token, { name: "Disco *Nights*" });
    await createRoom(t, owner.token, { name: "Elsewhere" });
    for (const room of [jazz, disco])
      await t.api(owner.token).room.POST("/rooms/discord/{guild}", {
        params: { path: { guild: GUILD } },
        body: { roomUuid: room.uuid },
      });
    await reportPresent(t, raver.user.uuid, jazz.uuid);
    await reportPresent(t, owner.user.uuid, jazz.uuid);
    t.live.states.set(jazz.uuid, song("So What", "Miles Davis"));
    const listed = await answer(post(t, command("rooms")));
    expect(listed.type).toBe(4);
    expect(listed.data?.flags).toBeUndefined();
    const lines = listed.data?.content.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines).toContain(
      `**Late Jazz** · 2 people · ▶ So What by Miles Davis · <${t.deps.config.webUrl}/rooms/${jazz.slug}>`,
    );
    expect(lines).toContain(
      `**Disco \\*Nights\\*** · 0 people · nothing plays · <${t.deps.config.webUrl}/rooms/${disco.slug}>`,
    );
    // Another guild has none.
    const none = await answer(post(t, command("rooms", undefined, { guild_id: "999999999999" })));
    expect(none.data?.content).toBe(DISCORD_BOT_MESSAGES.noRooms);
  });

  it("/booth rooms says so when the live rooms cannot be reached, and still lists who is in each room", async () => {
    const down: LiveRooms = {
      notify: async () => {},
      state: async () => {
        throw new HttpError(502, "The live room did not answer.");
      },
    };
    await withTestApp(configured(down), async (app) => {
      const owner = await app.createUser();
      const room = await createRoom(app, owner.token, { name: "Quiet" });
      await app.api(owner.token).room.POST("/rooms/discord/{guild}", {
        params: { path: { guild: GUILD } },
        body: { roomUuid: room.uuid },
      });
      const listed = await answer(post(app, command("rooms")));
      expect(listed.data?.content.split("\n")).toEqual([
        `**Quiet** · 0 people · <${app.deps.config.webUrl}/rooms/${room.slug}>`,
        DISCORD_BOT_MESSAGES.unreachable,
      ]);
      const playing = await answer(post(app, command("playing", room.slug)));
      expect(playing.data).toMatchObject({ content: DISCORD_BOT_MESSAGES.roomUnreachable, flags: EPHEMERAL });
    });
  });

  it("/booth playing names the song playing in a room, with a link button to it", async () => {
    const owner = await t.createUser();
    const room = await createRoom(t, owner.token, { name: "Sunday Soul" });
    const url = `${t.deps.config.webUrl}/rooms/${room.slug}`;
    const button = [{ type: 1, components: [{ type: 2, style: 5, label: "Open the room", url }] }];
    expect((await answer(post(t, command("playing", room.slug)))).data).toMatchObject({
      content: "Nothing plays in **Sunday Soul** right now.",
      components: button,
    });
    t.live.states.set(room.uuid, song("Respect", "Aretha Franklin"));
    const playing = await answer(post(t, command("playing", room.slug)));
    expect(playing).toEqual({
      type: 4,
      data: {
        content: "Now playing in **Sunday Soul**: Respect by Aretha Franklin",
        components: button,
        allowed_mentions: { parse: [] },
      },
    });
    // A room that is not there, or private to others, is not found, for the caller alone.
    const secret = await createRoom(t, owner.token, { name: "Secret", type: "PRIVATE" });
    for (const slug of ["no-such-room", secret.slug])
      expect((await answer(post(t, command("playing", slug)))).data).toMatchObject({
        content: DISCORD_BOT_MESSAGES.noRoom(slug.replace(/-/g, "\\-")),
        flags: EPHEMERAL,
      });
  });

  it("/booth open attaches a room to the guild for its managers only; others get a refusal only they see", async () => {
    const owner = await t.createUser();
    const room = await createRoom(t, owner.token, { name: "Open House" });
    const guild = "323456789012345678";
    const list = async () =>
      ok(await t.api().room.GET("/rooms/discord/list/{guild}", { params: { path: { guild } } })).map((r) => r.uuid);
    const refused = await answer(post(t, command("open", room.slug, { guild_id: guild })));
    expect(refused.data).toMatchObject({ content: DISCORD_BOT_MESSAGES.notManager, flags: EPHEMERAL });
    expect(await guildOf(t, room.uuid)).toBeNull();
    expect(await list()).toEqual([]);

    for (const permissions of [MANAGER, String(0x8)]) {
      const opened = await answer(
        post(t, command("open", room.slug, { guild_id: guild, member: { permissions, user: { id: "7" } } })),
      );
      expect(opened.data?.content).toBe("**Open House** is one of this server's rooms: /booth rooms lists it.");
      expect(opened.data?.flags).toBeUndefined();
    }
    expect(await list()).toEqual([room.uuid]);
    // A manager of another guild cannot take it, nor attach a private room.
    const elsewhere = await answer(post(t, command("open", room.slug, { member: { permissions: MANAGER } })));
    expect(elsewhere.data).toMatchObject({ content: DISCORD_BOT_MESSAGES.otherGuild, flags: EPHEMERAL });
    const secret = await createRoom(t, owner.token, { type: "PRIVATE" });
    const hidden = await answer(post(t, command("open", secret.slug, { member: { permissions: MANAGER } })));
    expect(hidden.data).toMatchObject({ content: DISCORD_BOT_MESSAGES.privateRoom, flags: EPHEMERAL });
    expect(await guildOf(t, room.uuid)).toBe(guild);
    expect(await guildOf(t, secret.uuid)).toBeNull();
  });

  it("answers unknown commands and interactions with a message for the caller alone, never an error", async () => {
    const unknown = { content: DISCORD_BOT_MESSAGES.unknown, flags: EPHEMERAL };
    expect((await answer(post(t, command("dance")))).data).toMatchObject(unknown);
    expect((await answer(post(t, { ...command("rooms"), data: { name: "other", type: 1 } }))).data).toMatchObject(
      unknown,
    );
    expect((await answer(post(t, command("playing")))).data).toMatchObject(unknown);
    expect((await answer(post(t, { type: 3, id: "2" }))).data).toMatchObject({
      content: DISCORD_BOT_MESSAGES.unsupported,
      flags: EPHEMERAL,
    });
    const direct = { ...command("rooms") } as Record<string, unknown>;
    delete direct.guild_id;
    expect((await answer(post(t, direct))).data).toMatchObject({
      content: DISCORD_BOT_MESSAGES.notInGuild,
      flags: EPHEMERAL,
    });
  });

  it("takes DISCORD_PUBLIC_KEY as 64 hex digits, and names it at start when it is not", () => {
    const key = discord.publicHex.toUpperCase();
    expect(readEdgeSettings({ DISCORD_PUBLIC_KEY: key }).DISCORD_PUBLIC_KEY).toBe(discord.publicHex);
    expect(() => readEdgeSettings({ DISCORD_PUBLIC_KEY: "not-a-key" })).toThrow(
      "DISCORD_PUBLIC_KEY is not the 64 hex digits of the application's public key (Developer Portal)",
    );
  });

  it("answers 503 naming DISCORD_PUBLIC_KEY when the bot is not configured", async () => {
    await withTestApp({}, async (bare) => {
      const res = await post(bare, { type: 1 });
      expect(res.status).toBe(503);
      expect((await res.json()).message).toBe("The Discord bot is not configured: set DISCORD_PUBLIC_KEY.");
    });
  });
});
