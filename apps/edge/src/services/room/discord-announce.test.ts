import { generateKeyPairSync, sign } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { schema } from "@booth/db";
import { EPHEMERAL } from "@booth/sdk/discord";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../deps.ts";
import { firstRow } from "../../lib/rows.ts";
import type { IntegrationsConfig } from "../../ports/integrations.ts";
import { expectErrorLog, ok, openTestApp, type TestApp, until, withTestApp } from "../../testing.ts";
import { ANNOUNCE_OFF_REASONS, postDjStart } from "./discord-announce.ts";
import { DISCORD_BOT_MESSAGES } from "./discord-bot.ts";

const R = "/api/room-service";
const TOKEN = "bot-token-of-booth";
const MANAGER = String(0x20);

/** A stand-in of Discord's API: it records each post to a channel, and answers as `answers` says for that channel. */
interface Post {
  channel: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
  at: number;
}
const posts: Post[] = [];
/** Per channel, the answers to give before the usual 200 (status and JSON body), first first. */
const answers = new Map<string, { status: number; body: unknown }[]>();
const bodyOf = async (req: IncomingMessage) => {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : null;
};
const server = createServer(async (req, res) => {
  const body = await bodyOf(req);
  const channel = /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(req.url ?? "")?.[1];
  res.setHeader("content-type", "application/json");
  if (req.method !== "POST" || !channel) {
    res.statusCode = 404;
    res.end(JSON.stringify({ message: "404: Not Found", code: 0 }));
    return;
  }
  if (req.headers.authorization !== `Bot ${TOKEN}`) {
    res.statusCode = 401;
    res.end(JSON.stringify({ message: "401: Unauthorized", code: 0 }));
    return;
  }
  const scripted = answers.get(channel)?.shift();
  posts.push({ channel, authorization: req.headers.authorization, body, at: Date.now() });
  res.statusCode = scripted?.status ?? 200;
  res.end(JSON.stringify(scripted?.body ?? { id: String(posts.length), channel_id: channel, ...body }));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
afterAll(() => server.close());
const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`;

/** Booth's Discord application's key pair, made here: the app knows the public half, the test signs with the other. */
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const publicHex = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex");
const configured = (integrations: IntegrationsConfig = {}) => ({
  config: {
    ...defaultConfig,
    integrations: { discordPublicKey: publicHex, discordBotToken: TOKEN, discordApiUrl: apiUrl, ...integrations },
  },
});
const t = openTestApp(configured());

let ids = 400000000000000000n;
const snowflake = () => String(ids++);

/** Posts an interaction as Discord does: signed over the timestamp and the raw body. */
async function interact(app: TestApp, interaction: unknown) {
  const body = JSON.stringify(interaction);
  const timestamp = String(Math.floor(app.clock.now().getTime() / 1000));
  const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString("hex");
  const res = await app.app.request(`${R}/discord/interactions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-signature-ed25519": signature,
      "x-signature-timestamp": timestamp,
    },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { content: string; flags?: number } }).data;
}
/** `/booth announce on channel:<channel>` (or `off` without one) in `guild`, by a member with `permissions`. */
const announce = (app: TestApp, guild: string, channel: string | null, permissions = MANAGER) =>
  interact(app, {
    type: 2,
    id: snowflake(),
    guild_id: guild,
    data: {
      name: "booth",
      type: 1,
      options: [
        {
          name: "announce",
          type: 2,
          options: [
            channel
              ? { name: "on", type: 1, options: [{ name: "channel", type: 7, value: channel }] }
              : { name: "off", type: 1 },
          ],
        },
      ],
    },
    member: { permissions, user: { id: "42", username: "manager" } },
  });

const settingsOf = (app: TestApp, guild: string) =>
  firstRow(app.db, schema.discordAnnouncements, eq(schema.discordAnnouncements.guildId, guild));

/** A DJ named `name` with `fans` followers, and a room of `guild` (none: a room in no guild). */
async function setting(
  app: TestApp,
  options: { name?: string; room?: string; guild?: string | null; fans?: number } = {},
) {
  const name = options.name ?? `DJ ${crypto.randomUUID().slice(0, 8)}`;
  const owner = await app.createUser();
  const dj = await app.createUser({ nickname: name });
  for (let i = 0; i < (options.fans ?? 1); i++) {
    const fan = await app.createUser();
    ok(await app.api(fan.token).social.POST("/dj-fans", { body: { djUuid: dj.user.uuid } }));
  }
  const room = ok(
    await app.api(owner.token).room.POST("/rooms/infrastructure", {
      body: { name: options.room ?? `Room ${crypto.randomUUID().slice(0, 8)}` },
    }),
  ) as { uuid: string; slug: string; name: string };
  const guild = options.guild === undefined ? snowflake() : options.guild;
  if (guild)
    ok(
      await app.api(owner.token).room.POST("/rooms/discord/{guild}", {
        params: { path: { guild } },
        body: { roomUuid: room.uuid },
      }),
    );
  return { dj, room, guild, name };
}

/** The live room's call as a DJ starts a song. */
async function starts(
  app: TestApp,
  djUuid: string,
  roomUuid: string,
  song = { trackName: "So What", artistName: "Miles Davis" },
) {
  ok(
    await app.api(await app.serviceToken()).social.POST("/notifications/dj-fans", { body: { djUuid, roomUuid, song } }),
  );
}

/** The announcement jobs of a room. */
const jobsOf = async (app: TestApp, roomUuid: string) =>
  (await app.deps.jobs.list({ kind: "discord-announce", limit: 100 })).filter((j) => j.data.roomUuid === roomUuid);
/** Waits until the room has `count` announcement jobs, all finished (done or failed for good). */
const settled = (app: TestApp, roomUuid: string, count: number) =>
  until(async () => {
    const jobs = await jobsOf(app, roomUuid);
    return jobs.length === count && jobs.every((j) => j.state === "completed" || j.state === "failed") && jobs;
  }, `${count} announcement jobs of the room finished`);
const postsTo = (channel: string) => posts.filter((p) => p.channel === channel);

describe("/booth announce", () => {
  it("chooses the channel for the guild's managers only, answered to them alone; off stops", async () => {
    const guild = snowflake();
    const channel = snowflake();
    const refused = await announce(t, guild, channel, "0");
    expect(refused).toMatchObject({ content: DISCORD_BOT_MESSAGES.notManagerAnnounce, flags: EPHEMERAL });
    expect(await announce(t, guild, null, String(0x10))).toMatchObject({
      content: DISCORD_BOT_MESSAGES.notManagerAnnounce,
    });
    expect(await settingsOf(t, guild)).toBeNull();

    for (const permissions of [MANAGER, String(0x8)])
      expect(await announce(t, guild, channel, permissions)).toEqual({
        content: DISCORD_BOT_MESSAGES.announceOn(channel),
        flags: EPHEMERAL,
        allowed_mentions: { parse: [] },
      });
    expect(await settingsOf(t, guild)).toMatchObject({ channelId: channel, changedBy: "42", offReason: null });

    expect(await announce(t, guild, null)).toMatchObject({
      content: DISCORD_BOT_MESSAGES.announceOff,
      flags: EPHEMERAL,
    });
    expect((await settingsOf(t, guild))?.channelId).toBeNull();
    // Outside a guild there is nothing to choose.
    const direct = await interact(t, {
      type: 2,
      id: snowflake(),
      data: { name: "booth", type: 1, options: [{ name: "announce", type: 2, options: [{ name: "off", type: 1 }] }] },
    });
    expect(direct).toMatchObject({ content: DISCORD_BOT_MESSAGES.notInGuild, flags: EPHEMERAL });
  });

  it("names DISCORD_BOT_TOKEN when the bot has no token, and queues nothing", async () => {
    await withTestApp(configured({ discordBotToken: undefined }), async (app) => {
      const { dj, room, guild } = await setting(app);
      const answer = await announce(app, guild ?? "", snowflake());
      expect(answer).toMatchObject({ content: DISCORD_BOT_MESSAGES.noToken, flags: EPHEMERAL });
      expect(answer.content).toContain("DISCORD_BOT_TOKEN");
      expect(await settingsOf(app, guild ?? "")).toBeNull();
      // A guild that chose a channel before the token went: nothing is queued either.
      await app.db.insert(schema.discordAnnouncements).values({ guildId: guild ?? "", channelId: snowflake() });
      await starts(app, dj.user.uuid, room.uuid);
      expect(await jobsOf(app, room.uuid)).toEqual([]);
    });
  });
});

describe("a followed DJ starting to play in a guild's room", () => {
  it("is posted to the guild's channel: who, where, what, a button to the room, no mentions, no markup", async () => {
    const { dj, room, guild } = await setting(t, { name: "DJ *Star*", room: "Late_Night [jazz](x)" });
    const channel = snowflake();
    await announce(t, guild ?? "", channel);
    await starts(t, dj.user.uuid, room.uuid, { trackName: "@everyone ~~So~~ What", artistName: "<@123> `Miles`" });
    const [job] = await settled(t, room.uuid, 1);
    expect(job?.state).toBe("completed");
    expect(postsTo(channel)).toHaveLength(1);
    const [post] = postsTo(channel);
    expect(post?.authorization).toBe(`Bot ${TOKEN}`);
    expect(post?.body).toEqual({
      content:
        "🎧 **DJ \\*Star\\*** started playing in **Late\\_Night \\[jazz\\]\\(x\\)**: @everyone \\~\\~So\\~\\~ What by <@123\\> \\`Miles\\`",
      allowed_mentions: { parse: [] },
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 5, label: "Open the room", url: `${t.deps.config.webUrl}/rooms/${room.slug}` },
          ],
        },
      ],
      nonce: String(job?.data.startId).replaceAll("-", "").slice(0, 25),
      enforce_nonce: true,
    });
  });

  it("is not posted for a DJ without followers, a room in no guild, a guild that did not choose a channel or stopped", async () => {
    const noFans = await setting(t, { fans: 0 });
    await announce(t, noFans.guild ?? "", snowflake());
    const noGuild = await setting(t, { guild: null });
    const notChosen = await setting(t);
    const stopped = await setting(t);
    await announce(t, stopped.guild ?? "", snowflake());
    await announce(t, stopped.guild ?? "", null);
    // An admin's call notifies fans, but only the live room says a song started.
    const admin = await setting(t);
    await announce(t, admin.guild ?? "", snowflake());
    for (const { dj, room } of [noFans, noGuild, notChosen, stopped]) {
      await starts(t, dj.user.uuid, room.uuid);
      expect(await jobsOf(t, room.uuid)).toEqual([]);
    }
    const staff = await t.createUser({ roles: ["admin"] });
    ok(
      await t.api(staff.token).social.POST("/notifications/dj-fans", {
        body: { djUuid: admin.dj.user.uuid, roomUuid: admin.room.uuid, song: { trackName: "A", artistName: "B" } },
      }),
    );
    expect(await jobsOf(t, admin.room.uuid)).toEqual([]);
  });

  it("is posted once per DJ per room in 30 minutes, however many songs they play", async () => {
    const { dj, room, guild } = await setting(t);
    const channel = snowflake();
    await announce(t, guild ?? "", channel);
    await starts(t, dj.user.uuid, room.uuid);
    await settled(t, room.uuid, 1);
    t.clock.advance(29 * 60);
    await starts(t, dj.user.uuid, room.uuid, { trackName: "Blue in Green", artistName: "Miles Davis" });
    await settled(t, room.uuid, 2);
    expect(postsTo(channel)).toHaveLength(1);
    t.clock.advance(2 * 60);
    await starts(t, dj.user.uuid, room.uuid, { trackName: "Flamenco Sketches", artistName: "Miles Davis" });
    await settled(t, room.uuid, 3);
    expect(postsTo(channel).map((p) => p.body.content)).toEqual([
      expect.stringContaining("So What"),
      expect.stringContaining("Flamenco Sketches"),
    ]);
  });

  it("is posted once when two edges queue starts and two workers post them at the same moment", async () => {
    const { dj, room, guild } = await setting(t);
    const channel = snowflake();
    await announce(t, guild ?? "", channel);
    // Two starts reaching two edges at once: both queue, one posts.
    await Promise.all([starts(t, dj.user.uuid, room.uuid), starts(t, dj.user.uuid, room.uuid)]);
    await settled(t, room.uuid, 2);
    expect(postsTo(channel)).toHaveLength(1);
    // Two workers taking two jobs of the DJ's next start in another room at the same moment: one posts.
    const other = await setting(t, { guild });
    const job = (startId: string) => ({
      startId,
      roomUuid: other.room.uuid,
      djUuid: dj.user.uuid,
      song: { trackName: "Freddie Freeloader", artistName: "Miles Davis" },
      waits: 0,
    });
    await Promise.all([
      postDjStart(t.deps, job(crypto.randomUUID())),
      postDjStart(t.deps, job(crypto.randomUUID())),
      postDjStart(t.deps, job(crypto.randomUUID())),
    ]);
    expect(postsTo(channel).filter((p) => String(p.body.content).includes("Freddie"))).toHaveLength(1);
  });

  it("waits as Discord's 429 says, retries its 5xx, then posts once", async () => {
    expectErrorLog(/Discord answered 502/);
    const { dj, room, guild } = await setting(t);
    const channel = snowflake();
    await announce(t, guild ?? "", channel);
    answers.set(channel, [
      { status: 429, body: { message: "You are being rate limited.", retry_after: 1.5, global: false } },
      { status: 502, body: { message: "Bad Gateway" } },
    ]);
    await starts(t, dj.user.uuid, room.uuid);
    await until(async () => postsTo(channel).length === 3 && (await settled(t, room.uuid, 2)), "the third try");
    const [limited, failed, done] = postsTo(channel);
    // Asked again no sooner than Discord said; the same message each time (its nonce too).
    expect((failed?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1500);
    expect(done?.body).toEqual(limited?.body);
    expect((await jobsOf(t, room.uuid)).map((j) => j.state)).toEqual(["completed", "completed"]);
  });

  it("turns the guild's announcements off, saying why, when Discord answers 404 or 403", async () => {
    for (const status of [404, 403]) {
      const { dj, room, guild } = await setting(t);
      const channel = snowflake();
      await announce(t, guild ?? "", channel);
      answers.set(channel, [{ status, body: { message: "Unknown Channel", code: 10003 } }]);
      await starts(t, dj.user.uuid, room.uuid);
      const [job] = await settled(t, room.uuid, 1);
      expect(job?.state).toBe("completed");
      expect(postsTo(channel)).toHaveLength(1);
      expect(await settingsOf(t, guild ?? "")).toMatchObject({
        channelId: null,
        offReason: ANNOUNCE_OFF_REASONS.gone(status),
      });
      // Off: the next start queues nothing.
      t.clock.advance(31 * 60);
      await starts(t, dj.user.uuid, room.uuid);
      expect(await jobsOf(t, room.uuid)).toHaveLength(1);
    }
  });
});
