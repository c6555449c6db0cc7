/**
 * Booth as a Discord Activity (docs/discord.md): a page stands in for Discord (discord-stand-in.ts: its client frames
 * the web app with the Activity's query and answers the Embedded App SDK's handshake, AUTHORIZE and AUTHENTICATE; its
 * proxy serves `/.proxy/edge` and `/.proxy/party`), and the edge's stand-in of Discord's API (fake-providers.ts)
 * answers the code exchange, the user and their guilds. Two people start the Activity in one voice channel: each is
 * signed in without a sign-in screen, both land in the channel's room, which plays, takes their votes and their chat,
 * every call of the page that leaves the frame going through Discord's proxy paths.
 */
import { schema } from "@booth/db";
import { openedForTests } from "@booth/edge/testing";
import { LiveRoomClient } from "@booth/sdk/live";
import { eq } from "drizzle-orm";
import type { Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type DiscordStandIn, startDiscordStandIn } from "./discord-stand-in.ts";
import { eventually, suiteStack } from "./harness.ts";
import { suiteFakeProviders } from "./harness-b.ts";

const stack = suiteStack({ songs: 1, songSeconds: 90 });
const fake = suiteFakeProviders(stack);
const discord: DiscordStandIn = openedForTests(
  "Discord's stand-in",
  () => startDiscordStandIn(stack.webUrl, { edge: stack.edgeUrl, party: stack.partyUrl }),
  (d) => d.close(),
);

const GUILD = "600000000000000001";
const CHANNEL = "600000000000000002";

/** The Activity's frame of a page (the web app inside the stand-in's client), once it is there. */
async function activityFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await eventually(() => {
    found = page.frames().find((f) => f.url().startsWith(`${discord.origin}/`) && !f.url().includes("/.discord/"));
    expect(found).toBeDefined();
  }, 30_000);
  return found as Frame;
}

const textOf = (frame: Frame, selector: string) =>
  frame
    .locator(selector)
    .first()
    .textContent({ timeout: 1_000 })
    .catch(() => null);

async function expectFrameText(frame: Frame, selector: string, expected: RegExp | string, timeoutMs = 20_000) {
  await eventually(async () => {
    const text = (await textOf(frame, selector)) ?? "";
    if (typeof expected === "string") expect(text).toContain(expected);
    else expect(text).toMatch(expected);
  }, timeoutMs);
}

/** A person who starts (or joins) the Activity in the voice channel, as a Discord user in the guild. */
async function startsActivity(name: string, n: number) {
  const person = await stack.person();
  const user = { id: `61000000000000000${n}`, username: name };
  // Discord vouches for the email (the email scope): the Booth account is verified, so the person may chat.
  const code = fake.discordCode({ ...user, email: `${name}@discord.test`, verified: true, guilds: [GUILD] });
  // What the page asks of any origin but the frame's own: none may be the edge's or the party's.
  const direct: string[] = [];
  person.page.on("request", (r) => {
    const url = r.url();
    if (
      url.startsWith(stack.edgeUrl) ||
      url.startsWith(stack.partyUrl) ||
      url.startsWith(stack.partyUrl.replace(/^http/, "ws"))
    )
      direct.push(url);
  });
  person.page.on("websocket", (ws) => {
    if (!ws.url().startsWith(discord.origin.replace(/^http/, "ws"))) direct.push(ws.url());
  });
  await person.page.goto(discord.topUrl({ guild: GUILD, channel: CHANNEL, instance: "i-1", code, user }));
  const frame = await activityFrame(person.page);
  return { ...person, frame, user, direct };
}

describe("the Discord Activity", { timeout: 300_000 }, () => {
  it("signs people in without a second screen, puts one voice channel in one room, and plays through Discord's proxy", async () => {
    const ana = await startsActivity("activity-ana", 1);
    // Signed in by the SDK's authorize and authenticate, then to the channel's room: no sign-in screen on the way.
    await eventually(() => expect(new URL(ana.frame.url()).pathname).toMatch(/^\/rooms\//), 60_000).catch(
      async (error: unknown) => {
        const state = await ana.frame
          .evaluate(() => ({
            activity: document.documentElement.dataset.discordActivity,
            meta: document.querySelector('meta[name="booth-discord-activity"]')?.getAttribute("content"),
            banner: document.querySelector("[data-testid=activity-failure]")?.textContent,
            cookies: document.cookie,
          }))
          .catch((e: unknown) => String(e));
        console.error("the Activity did not land", { state, errors: ana.errors, proxied: discord.proxied });
        throw error;
      },
    );
    const client = ana.page.frames().find((f) => f.url().includes("/.discord/client"));
    expect(await client?.evaluate(() => (window as unknown as { commands: string[] }).commands)).toEqual(
      expect.arrayContaining(["AUTHORIZE", "AUTHENTICATE"]),
    );
    expect(
      await client?.evaluate(() => (window as unknown as { authorizeArgs: { scope: string[] } }).authorizeArgs.scope),
    ).toEqual(["identify", "email", "guilds"]);
    const slug = new URL(ana.frame.url()).pathname.split("/")[2] as string;

    const ben = await startsActivity("activity-ben", 2);
    await eventually(() => expect(new URL(ben.frame.url()).pathname).toBe(`/rooms/${slug}`), 60_000);
    // Both are Booth accounts linked to their Discord users; the room is the guild's, and the channel's.
    const [room] = await stack.t.db.select().from(schema.rooms).where(eqSlug(slug));
    expect(room?.discordGuildId).toBe(GUILD);
    const rooms = await stack.t.db.select().from(schema.discordActivityRooms);
    expect(rooms).toEqual([expect.objectContaining({ guildId: GUILD, channelId: CHANNEL, roomUuid: room?.uuid })]);
    const links = await stack.t.db.select().from(schema.providerAccounts);
    expect(links.map((l) => l.providerUserId).sort()).toEqual([ana.user.id, ben.user.id].sort());

    // A DJ plays a song (from the SDK's live client, as a bot would): both hear it, through the proxy.
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const dj = await stack.t.createUser({ nickname: "Activity DJ" });
    await stack.t.request("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: dj.token,
      body: { songIds: [track!.id] },
    });
    const live = new LiveRoomClient({ url: stack.partyUrl, roomUuid: room!.uuid, token: dj.token });
    await live.connect();
    await live.addDj();
    for (const p of [ana, ben]) {
      await expectFrameText(p.frame, "[data-testid=connection]", /in the room/, 30_000).catch(
        async (error: unknown) => {
          const html = await p.frame.evaluate(() => document.querySelector("main")?.textContent?.slice(0, 600));
          console.error("not in the room", { html, errors: p.errors, proxied: discord.proxied.slice(-40) });
          throw error;
        },
      );
      await expectFrameText(p.frame, "[data-testid=track-name]", track!.trackName, 30_000);
    }
    // Ben likes the song: Ana sees the vote. Ana says something: Ben reads it.
    await ben.frame.click("[data-testid=like]");
    await expectFrameText(ana.frame, "[data-testid=vote-counts]", /^1 like/);
    await ana.frame.fill("[data-testid=chat-input]", "Hello from Discord");
    await ana.frame.click("[data-testid=chat-send]");
    await expectFrameText(ben.frame, "[data-testid=chat-message]", "Hello from Discord");
    live.close();

    // Every call that left the frame went through /.proxy: the live room's socket and the edge's media.
    expect(discord.proxied.some((r) => r.prefix === "party" && r.upgrade)).toBe(true);
    expect(discord.proxied.some((r) => r.prefix === "edge")).toBe(true);
    expect(ana.direct).toEqual([]);
    expect(ben.direct).toEqual([]);
    expect(ana.errors.filter((e) => !/Content Security Policy|Failed to load resource/.test(e))).toEqual([]);
  });

  it("changes nothing outside Discord: no SDK, no Activity cookie, the page may not be framed", async () => {
    const person = await stack.person();
    const scripts: string[] = [];
    person.page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    const answer = await person.page.goto("/");
    expect(answer?.headers()["x-frame-options"]).toBe("DENY");
    expect(answer?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(answer?.headers()["set-cookie"] ?? "").not.toContain("booth_activity");
    expect(await person.page.locator(`meta[name="booth-discord-activity"]`).count()).toBe(0);
    await eventually(() => expect(scripts.length).toBeGreaterThan(0));
    expect(scripts.filter((s) => /discord-activity\.client|embedded-app-sdk/.test(s))).toEqual([]);
    // The URL mappings for the Developer Portal, from the web's settings.
    const mappings = await (await person.page.request.get("/discord-activity/mappings")).text();
    expect(mappings).toContain(`/edge\t${new URL(stack.edgeUrl).host}\n`);
    expect(mappings).toContain(`/party\t${new URL(stack.partyUrl).host}\n`);
    // The Activity's sign-in is the Activity's alone.
    const signIn = await person.page.request.post("/discord-activity/sign-in", { data: { code: "x" } });
    expect(signIn.status()).toBe(400);
  });

  it("refuses another site's posts carrying the Activity's cookies", async () => {
    const res = await fetch(`${stack.webUrl}/discord-activity/sign-in`, {
      method: "POST",
      headers: { cookie: "booth_activity=1", "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: JSON.stringify({ code: "x" }),
    });
    expect(res.status).toBe(403);
  });
});

const eqSlug = (slug: string) => eq(schema.rooms.slug, slug);
