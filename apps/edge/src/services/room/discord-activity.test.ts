import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DiscordFakeUser, FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp } from "../../testing.ts";
import { ACTIVITY_MESSAGES } from "./discord-activity.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

const GUILD = "400000000000000001";
let n = 0;
const snowflake = () => `5000000000${String(++n).padStart(8, "0")}`;

/** A Discord user in `guilds`, signed in to Booth through the Activity: their Booth token and Discord access token. */
async function activityPerson(guilds = [GUILD]) {
  n++;
  const person: DiscordFakeUser = { id: `${7000000 + n}`, username: `listener${n}`, email: null, guilds };
  const exchanged = ok(await t.api().user.POST("/auth/exchange-code", { body: { code: fake.discordCode(person) } }));
  const signedIn = ok(await t.api().user.POST("/auth/discord-auth", { body: { accessToken: exchanged.accessToken } }));
  return { person, token: signedIn.accessToken, discordToken: exchanged.accessToken, uuid: signedIn.user.uuid };
}

const start = (token: string | undefined, guild: string, body: Record<string, unknown>) =>
  t.request("POST", `/api/room-service/rooms/discord/${guild}/activity`, { body, token });

describe("POST /rooms/discord/{guild}/activity", () => {
  it("opens a room for a voice channel at the first start, and everyone who joins lands in it", async () => {
    const first = await activityPerson();
    const second = await activityPerson();
    const channel = snowflake();
    const opened = await t.api(first.token).room.POST("/rooms/discord/{guild}/activity", {
      params: { path: { guild: GUILD } },
      body: { channelId: channel, accessToken: first.discordToken, name: "Voice Lounge" },
    });
    expect(opened.response.status).toBe(200);
    expect(opened.data).toMatchObject({ name: "Voice Lounge", opened: true });
    const joined = await t.api(second.token).room.POST("/rooms/discord/{guild}/activity", {
      params: { path: { guild: GUILD } },
      body: { channelId: channel, accessToken: second.discordToken, name: "Another name" },
    });
    expect(joined.data).toMatchObject({ uuid: ok(opened).uuid, opened: false });
    // The guild's rooms list it, as every room the guild has; the first person owns it.
    const listed = ok(await t.api().room.GET("/rooms/discord/list/{guild}", { params: { path: { guild: GUILD } } }));
    expect(listed.map((r) => r.uuid)).toContain(ok(opened).uuid);
    const [row] = await t.db
      .select()
      .from(schema.rooms)
      .where(eq(schema.rooms.uuid, ok(opened).uuid));
    expect(row).toMatchObject({ ownerUuid: first.uuid, discordGuildId: GUILD });
    // Another channel of the guild gets its own room.
    const other = ok(
      await t.api(second.token).room.POST("/rooms/discord/{guild}/activity", {
        params: { path: { guild: GUILD } },
        body: { channelId: snowflake(), accessToken: second.discordToken },
      }),
    );
    expect(other.uuid).not.toBe(ok(opened).uuid);
    expect(other.opened).toBe(true);
  });

  it("plays the room the guild attached, when no other channel plays it", async () => {
    const guild = snowflake();
    const manager = await activityPerson([guild]);
    const attached = ok(
      await t.api(manager.token).room.POST("/rooms/discord/{guild}", {
        params: { path: { guild } },
        body: { name: "The Guild Room" },
      }),
    );
    const first = ok(
      await t.api(manager.token).room.POST("/rooms/discord/{guild}/activity", {
        params: { path: { guild } },
        body: { channelId: snowflake(), accessToken: manager.discordToken },
      }),
    );
    expect(first).toMatchObject({ uuid: attached.uuid, opened: true });
    // A second channel: the attached room is the first's, so a new one.
    const second = ok(
      await t.api(manager.token).room.POST("/rooms/discord/{guild}/activity", {
        params: { path: { guild } },
        body: { channelId: snowflake(), accessToken: manager.discordToken },
      }),
    );
    expect(second.uuid).not.toBe(attached.uuid);
  });

  it("makes one room when many start the Activity in a channel at once", async () => {
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => activityPerson()));
    const channel = snowflake();
    const answers = await Promise.all(
      people.map((p) => start(p.token, GUILD, { channelId: channel, accessToken: p.discordToken })),
    );
    const bodies = answers.map((r) => ({ status: r.status, body: r.body }));
    expect(bodies.map((b) => b.status)).toEqual(people.map(() => 200));
    expect(new Set(bodies.map((b) => (b.body as { uuid: string }).uuid)).size).toBe(1);
    expect(bodies.filter((b) => (b.body as { opened: boolean }).opened)).toHaveLength(1);
    const rows = await t.db
      .select()
      .from(schema.discordActivityRooms)
      .where(eq(schema.discordActivityRooms.channelId, channel));
    expect(rows).toHaveLength(1);
    const made = await t.db
      .select()
      .from(schema.rooms)
      .where(eq(schema.rooms.name, `Discord ${channel.slice(-6)}`));
    expect(made).toHaveLength(1);
  });

  it("refuses callers who are not signed in, not the token's Discord user, or not in the guild", async () => {
    const member = await activityPerson();
    const channel = snowflake();
    const body = { channelId: channel, accessToken: member.discordToken };
    expect((await start(undefined, GUILD, body)).status).toBe(401);
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    expect((await start(guest, GUILD, body)).status).toBe(401);
    // A Booth account using someone else's Discord token.
    const other = await t.createUser();
    expectRefusal(await start(other.token, GUILD, body), 403, ACTIVITY_MESSAGES.notLinked);
    // A guild the person is not in.
    expectRefusal(await start(member.token, snowflake(), body), 403, ACTIVITY_MESSAGES.notMember);
    // A token Discord issued to another app.
    fake.foreignDiscordTokens.set("someone-elses-token", member.person.id);
    expect((await start(member.token, GUILD, { ...body, accessToken: "someone-elses-token" })).status).toBe(400);
    // Nothing was decided for the channel.
    expect(
      await t.db.select().from(schema.discordActivityRooms).where(eq(schema.discordActivityRooms.channelId, channel)),
    ).toHaveLength(0);
  });

  it("answers 400 for bad input and 503 when Discord is not configured", async () => {
    const member = await activityPerson();
    for (const [guild, body] of [
      ["not-a-guild", { channelId: snowflake(), accessToken: member.discordToken }],
      [GUILD, { channelId: "x", accessToken: member.discordToken }],
      [GUILD, { channelId: snowflake() }],
      [GUILD, { channelId: snowflake(), accessToken: "" }],
      [GUILD, { channelId: snowflake(), accessToken: member.discordToken, extra: 1 }],
      [GUILD, { channelId: snowflake(), accessToken: member.discordToken, name: "" }],
    ] as const) {
      const res = await start(member.token, guild, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const someone = await bare.createUser();
    const off = await bare.request("POST", `/api/room-service/rooms/discord/${GUILD}/activity`, {
      body: { channelId: snowflake(), accessToken: "x" },
      token: someone.token,
    });
    expectRefusal(off, 503, "Discord is not configured: set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.");
  });
});
