/**
 * The CLI against a whole instance: the edge in-process over HTTP, `wrangler dev` running the live rooms, and the real
 * `booth` binary (two bots, an admin) driving a season from creation to its awarded avatars.
 */
import { type ChildProcess, execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestAppForParty, serveTestApp, type TestApp } from "@booth/edge/testing";
import { type ChatMessage, LiveRoomClient } from "@booth/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoCatalogue } from "../../edge/src/seed/demo-catalogue.ts";
import { spawnChild } from "../../edge/src/testing/child-server.ts";
import { freePort, startParty, until } from "../../rooms-party/test/helpers.ts";
import { buildCli } from "../scripts/build.mjs";

const run = promisify(execFile);
// The CLI bundled as it ships (scripts/build.mjs): one file Node starts at once, not the sources through tsx.
let BIN: string;
const SEASON_SECONDS = 600;

let t: TestApp;
let edgeServer: Awaited<ReturnType<typeof serveTestApp>>;
let api: string;
let party: Awaited<ReturnType<typeof startParty>>;
let persistDir: string;
let home: string;
const bots: ChildProcess[] = [];

beforeAll(async () => {
  BIN = await buildCli();
  const partyPort = await freePort();
  // The edge tells the party, and its tokens are checked by the party, against the real time.
  t = await createTestAppForParty(`http://127.0.0.1:${partyPort}`);
  edgeServer = await serveTestApp(t);
  api = edgeServer.url;
  // What the edge does at start: the demo catalogue (4 short tracks: 2, 7, 12 and 2 seconds).
  await seedDemoCatalogue(t.deps, { perArtist: 1, seconds: 2 });
  persistDir = await mkdtemp(join(tmpdir(), "booth-cli-party-"));
  home = await mkdtemp(join(tmpdir(), "booth-cli-bots-"));
  party = await startParty({
    port: partyPort,
    persistDir,
    vars: {
      BOOTH_EDGE_URL: api,
      BOOTH_PRESENCE_GRACE_MS: "3000",
      // Songs play at half their length.
      BOOTH_TIME_SCALE: "0.5",
    },
    secrets: { BOOTH_SERVICE_SECRET: t.serviceSecret },
  });
}, 180_000);

afterAll(async () => {
  for (const bot of bots) if (bot.exitCode === null) bot.kill("SIGKILL");
  await party?.stop();
  edgeServer?.close();
  await t?.close();
  for (const dir of [persistDir, home]) if (dir) await rm(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  ...process.env,
  XDG_CONFIG_HOME: home,
  BOOTH_EDGE_URL: api,
  BOOTH_PARTY_URL: party.url,
  ...extra,
});

async function booth(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: env(), timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `booth bot run` as its own process, with what it prints. */
function startBot(token: string, ...args: string[]) {
  const bot = spawnChild({ args: [BIN, "bot", "run", ...args], env: env({ BOOTH_BOT_TOKEN: token }) });
  bots.push(bot.child);
  return { child: bot.child, output: bot.output, exited: bot.exited };
}

const json = (result: { stdout: string; stderr: string }) => {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`not JSON: ${result.stdout}\n${result.stderr}`);
  }
};

describe("bots and a season, through the booth binary", () => {
  it("two bots take seats, play a rotation, like each other's songs (earning nothing) and answer the chat; the season's award goes to the bot a person liked", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"], nickname: "boss" });
    expect((await booth("login", "-e", admin.email, "-p", admin.password)).code).toBe(0);

    // A season running now (the admin ends it once the bots have played), with an avatar for everyone who earns a
    // point in it.
    const now = Date.now();
    const plannedEnd = now + SEASON_SECONDS * 1000;
    const season = json(
      await booth(
        "seasons",
        "create",
        "Bot season",
        "--start",
        new Date(now - 60_000).toISOString(),
        "--end",
        new Date(plannedEnd).toISOString(),
        "--json",
      ),
    );
    const crown = await booth(
      "avatars",
      "create",
      "bot-crown",
      "--name",
      "Bot crown",
      "-s",
      "SEASON_AWARD",
      "--season",
      season.id,
      "--min-points",
      "1",
    );
    expect(crown.code, crown.stderr).toBe(0);

    // A room with two seats, two bots. Private: in public rooms the live room lets only verified profiles chat, and a
    // bot (no email, no phone) has no way to be verified, so it could not answer there.
    const room = json(await booth("rooms", "create", "Bot Room", "--djs", "2", "--private", "--json"));
    const groove = json(await booth("bot", "create", "Groove Bot", "--json"));
    const echo = json(await booth("bot", "create", "Echo Bot", "--json"));
    expect(groove.accessToken).toBeTruthy();
    expect(groove.uuid).not.toBe(echo.uuid);

    // Groove plays from a crate the admin made (its queue is filled from it); Echo's queue is filled beforehand.
    const songs = await t.request("GET", "/api/playlist-service/api/v1/songs");
    const songIds = songs.body.data.map((s: { songId: string }) => s.songId);
    expect(songIds).toHaveLength(4);
    const crate = await t.request("POST", "/api/playlist-service/crate", {
      token: admin.token,
      body: { name: "Bot crate" },
    });
    await t.request("POST", `/api/playlist-service/crate/${crate.body.crateUuid}/songs`, {
      token: admin.token,
      body: { songIds },
    });
    await t.request("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: echo.accessToken,
      body: { songIds: [...songIds].reverse() },
    });

    const A = startBot(groove.accessToken, "--room", room.slug, "--crate", crate.body.crateUuid);
    const B = startBot(echo.accessToken, "--room", room.slug);
    await until(() => A.output().includes("took a DJ seat"), `groove seated: ${A.output()}`, 60_000);
    await until(() => B.output().includes("took a DJ seat"), `echo seated: ${B.output()}`, 60_000);
    expect(A.output()).toContain("queue: 4 songs added from crate");
    const live = json(await booth("rooms", "show", room.slug, "--live", "--json"));
    expect(live.state.djs.map((d: { uuid: string }) => d.uuid).sort()).toEqual([groove.uuid, echo.uuid].sort());

    // A rotation: they take turns, and each song the other plays gets a like.
    const plays = await until(
      async () => {
        const res = json(await booth("rooms", "plays", room.slug, "--limit", "10", "--json"));
        return res.total >= 4 ? res.data : null;
      },
      "four plays",
      60_000,
    );
    const order = [...plays].reverse().slice(0, 4) as { djUuid: string; voteCounts: { likes: number } }[];
    const first = order[0]?.djUuid;
    const other = first === groove.uuid ? echo.uuid : groove.uuid;
    expect(order.map((p) => p.djUuid)).toEqual([first, other, first, other]);
    for (const play of order) expect(play.voteCounts.likes).toBe(1);
    expect(A.output()).toMatch(/liked .+ by /);
    expect(B.output()).toMatch(/playing .+ by /);

    // The chat: a listener asks the bots things.
    const listener = await t.createUser({ nickname: "listener" });
    const client = new LiveRoomClient({ url: party.url, roomUuid: room.uuid, token: listener.token });
    await client.connect();
    const said = (text: string) => client.chatMessages.filter((m: ChatMessage) => m.message.includes(text));
    await client.sendChatMessage({ message: "!help" });
    await until(
      () => said("I answer to !help").length === 2,
      `both bots answer !help: ${JSON.stringify(client.chatMessages.map((m) => m.message))}`,
    ).catch((err) => {
      throw new Error(`${err}\n${A.output()}\n${B.output()}`);
    });
    // Ask for a skip while a song has a while to go: only the bot playing it obeys.
    await until(() => {
      const playing = client.state?.nowPlaying;
      return playing && playing.endTime - Date.now() > 2000;
    }, "a song with time left");
    const playingDj = client.state?.djs[0]?.uuid;
    // A person likes this song: the only like of the run that earns season points (bots' votes earn none).
    await client.voteOnSong({ like: true });
    await client.sendChatMessage({ message: "!song" });
    await until(() => said("Now playing:").length === 2, "both bots say what plays");
    await client.sendChatMessage({ message: "!skip" });
    await until(() => said("Skipping my song.").length === 1, "the playing bot skips");
    expect(said("Skipping my song.")[0]?.userUuid).toBe(playingDj);
    await until(() => said("I can only skip my own songs.").length === 1, "the other bot refuses");
    client.close();

    // Ctrl-C: each bot gives its seat back and exits 0.
    A.child.kill("SIGINT");
    expect(await A.exited).toBe(0);
    expect(A.output()).toContain("left the DJ booth");
    const after = await until(async () => {
      const state = json(await booth("rooms", "show", room.slug, "--live", "--json")).state;
      return state.djs.some((d: { uuid: string }) => d.uuid === groove.uuid) ? null : state;
    }, "groove off the stage");
    expect(after.djs.map((d: { uuid: string }) => d.uuid)).toEqual([echo.uuid]);
    // A reset starts the live room over: everyone reconnects, and Echo, still wanting a seat, sits down again.
    const seated = () => B.output().split("took a DJ seat").length;
    const before = seated();
    const reset = await booth("rooms", "reset", room.slug);
    expect(reset.stdout, reset.stderr).toContain("the live room was reset");
    await until(() => seated() > before, `echo seated again: ${B.output()}`);
    B.child.kill("SIGINT");
    expect(await B.exited).toBe(0);

    // The bots' likes of each other earned nothing; the person's like earned the bot it liked its points. The admin
    // ends the season a second from now; once it is over, closing it hands that bot the crown, and only that bot.
    const ranking = json(await booth("seasons", "ranking", "Bot season", "--json"));
    expect(ranking.data.map((r: { userUuid: string }) => r.userUuid)).toEqual([playingDj]);
    const seasonEnd = Date.now() + 1000;
    const ended = await booth("seasons", "update", season.id, "--end", new Date(seasonEnd).toISOString());
    expect(ended.code, ended.stderr).toBe(0);
    await new Promise((r) => setTimeout(r, Math.max(0, seasonEnd - Date.now() + 500)));
    const closed = await booth("seasons", "close", season.id, "--json");
    expect(closed.code, closed.stderr).toBe(0);
    expect(json(closed)).toEqual({ seasonId: season.id, awarded: 1 });
    const [liked, unliked] = playingDj === groove.uuid ? [groove, echo] : [echo, groove];
    expect((await booth("avatars", "check", "bot-crown", liked.uuid)).stdout).toContain("allowed (SEASON_AWARD");
    expect((await booth("avatars", "check", "bot-crown", unliked.uuid)).stdout).toContain("not allowed");
    expect((await booth("seasons", "close", season.id)).stderr).toContain("already been handled");
  }, 240_000);
});
