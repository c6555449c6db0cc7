import { execFile, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestApp } from "@booth/edge/testing";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { environmentReaders } from "../../../scripts/environment-readers.ts";
import { seedDemoCatalogue } from "../../edge/src/seed/demo-catalogue.ts";
import { until } from "../../edge/src/testing/until.ts";
import { type CliWorld, runBooth, startCliWorld } from "./testing.ts";

const run = promisify(execFile);
let world: CliWorld;
let BIN: string;
let t: TestApp;
let home: string;
let api: string;
beforeAll(async () => {
  // The CLI runs as its own process against a real HTTP server of the edge.
  world = await startCliWorld({ homePrefix: "booth-cli-", timeout: 30_000 });
  ({ bin: BIN, t, home, api } = world);
  // What the edge does at start: a small demo catalogue (4 short tracks instead of 20).
  await seedDemoCatalogue(t.deps, { perArtist: 1, seconds: 2 });
});
afterAll(() => world.close());

const booth = (...args: string[]) => world.booth(...args);

/**
 * The CLI at a terminal: run under `script`, which gives it a pseudo-terminal, typing `typed` once it has printed
 * `prompt`. Resolves with everything the terminal showed and the exit code.
 */
function atTerminal(args: string[], prompt: string, typed: string) {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, XDG_CONFIG_HOME: home, BOOTH_EDGE_URL: api, BOOTH_PASSWORD: "" },
  });
  let screen = "";
  let answered = false;
  return new Promise<{ code: number | null; screen: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no end at the terminal:\n${screen}`));
    }, 30_000);
    child.stdout.on("data", (d) => {
      screen += d;
      if (!answered && screen.includes(prompt)) {
        answered = true;
        child.stdin.write(`${typed}\r`);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

describe("booth", () => {
  it("asks for the password at a terminal when -p is not given, and shows nothing of it", async () => {
    const user = await t.createUser({ nickname: "typist" });
    const { code, screen } = await atTerminal(["login", "-e", user.email], "Password: ", user.password);
    expect(code, screen).toBe(0);
    expect(screen).toContain("Signed in as");
    expect(screen).not.toContain(user.password);
    expect((await booth("logout")).code).toBe(0);
  }, 60_000);

  it("tells failures apart by exit code, and prints them as JSON with --json", async () => {
    const version = await booth("--version");
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(BOOTH_VERSION);
    // A command line it cannot take: 2.
    const usage = await booth("seasons", "create");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/required (argument|option)/);
    expect((await booth("no-such-command")).code).toBe(2);
    // Not signed in: 3, with the server's status and message as JSON.
    const anonymous = await booth("outbox", "--json");
    expect(anonymous.code).toBe(3);
    expect(JSON.parse(anonymous.stderr)).toEqual({ error: { status: 401, message: expect.any(String) } });
    // Nothing answers at that address: 6.
    const away = await booth("--api", "http://127.0.0.1:9", "vouchers", "list", "--json");
    expect(away.code).toBe(6);
    expect(JSON.parse(away.stderr)).toEqual({
      error: { status: null, message: expect.stringContaining("the instance did not answer") },
    });
  }, 60_000);

  it("reads the old name of the edge's address with a warning, and names every bad setting before any request", async () => {
    const withEnv = (env: NodeJS.ProcessEnv, ...args: string[]) =>
      runBooth(BIN, args, { env: { ...process.env, XDG_CONFIG_HOME: home, ...env }, timeout: 30_000 });
    // Reached at BOOTH_API_URL: the edge answers (401, exit 3), where nothing would at the default address (6).
    const old = await withEnv({ BOOTH_EDGE_URL: "", BOOTH_API_URL: api }, "outbox", "--json");
    expect(old.code, old.stderr).toBe(3);
    expect(old.stderr).toContain(
      "booth: BOOTH_API_URL is an old name, read as BOOTH_EDGE_URL: rename it to BOOTH_EDGE_URL\n",
    );
    const bad = await withEnv({ BOOTH_EDGE_URL: "edge.internal", BOOTH_PARTY_URL: "ftp://rooms" }, "vouchers", "list");
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toEqual([
      'Error: booth cannot start: BOOTH_EDGE_URL is not an address: "edge.internal" (give http(s)://host[:port]); BOOTH_PARTY_URL is not an http(s) address: "ftp://rooms"',
    ]);
  }, 60_000);

  it("reads the environment only in its config module", () => {
    expect(environmentReaders("apps/cli")).toEqual(["apps/cli/src/config.ts"]);
  });

  it("logs in, keeps the session private to its owner, and says who it is", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"], nickname: "boss" });
    const wrong = await booth("login", "-e", admin.email, "-p", "wrong password");
    // A refused sign-in exits 3.
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain("Incorrect email or password.");
    const ok = await booth("login", "-e", admin.email, "-p", admin.password);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("Signed in as");
    expect((await stat(join(home, "booth", "config.json"))).mode & 0o777).toBe(0o600);
    const who = await booth("whoami", "--json");
    expect(JSON.parse(who.stdout)).toMatchObject({ nickname: "boss", roles: ["user", "admin"] });
  }, 60_000);

  it("seeds the demo data with a progress bar, and a second run finds it all and creates nothing", async () => {
    // Waiting for more demo tracks than the edge made gives up with a reason, having made nothing.
    const short = await booth("seed", "--demo-tracks", "5", "--wait", "0");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("the demo catalogue has 4 of 5 tracks after 0 s");

    // How many of each kind the demo data has: the first run creates them all, the second finds them all there.
    const DEMO = { users: 6, rooms: 3, crates: 12, avatars: 4, season: 1 };
    const seed = async (creates: boolean) => {
      const run = await booth("seed", "--demo-tracks", "4", "--json");
      expect(run.code, run.stderr).toBe(0);
      const seeded = JSON.parse(run.stdout);
      for (const [kind, n] of Object.entries(DEMO))
        expect(seeded[kind], kind).toMatchObject({ created: creates ? n : 0, existing: creates ? 0 : n });
      expect(seeded.catalogue).toMatchObject({ tracks: 4 });
      return { run, seeded };
    };
    const first = await seed(true);
    // Not a terminal: the progress comes as plain lines on stderr, up to the last step.
    expect(first.run.stderr).toContain("seed 1/30 catalogue:");
    expect(first.run.stderr).toContain("seed 30/30 avatars: Season star");
    const second = await seed(false);
    expect(second.seeded.season.id).toBe(first.seeded.season.id);

    // What a user of the instance now sees.
    const rooms = await t.request("GET", "/api/room-service/rooms/public");
    expect(rooms.body.data.map((r: { slug: string }) => r.slug).sort()).toEqual([
      "ambient-attic",
      "demo-lounge",
      "synth-garage",
    ]);
    const login = await t.request("POST", "/api/user-service/auth/login", {
      body: { email: "aurora@demo.booth.local", password: "booth-demo-password" },
    });
    expect(login.status).toBe(200);
    const queue = await t.request("GET", "/api/playlist-service/crate/special/queue/songs", {
      token: login.body.accessToken,
    });
    expect(queue.body).toHaveLength(4);
    const profile = await t.request("GET", `/api/user-service/profile/${login.body.user.uuid}`);
    expect(profile.body).toMatchObject({ nickname: "DJ Aurora", color: "#8B5CF6" });
    const listed = await booth("rooms", "list", "--json");
    expect(JSON.parse(listed.stdout).total).toBe(3);
    expect((await booth("seasons", "current")).stdout).toContain(first.seeded.season.name);
    expect((await booth("avatars", "list", "-s", "SEASON_AWARD")).stdout).toContain("demo-season-star");
  }, 120_000);

  it("creates vouchers that redeem once through the API, lists and revokes them", async () => {
    const made = await booth("vouchers", "create", "-n", "2", "--note", "cli", "--json");
    expect(made.code, made.stderr).toBe(0);
    const vouchers = JSON.parse(made.stdout) as { id: string; code: string }[];
    expect(vouchers).toHaveLength(2);
    const user = await t.createUser();
    const redeem = await t.request("PATCH", "/api/user-service/vouchers/redeem", {
      token: await t.tokenFor(user.user.uuid),
      body: { code: vouchers[0]?.code },
    });
    expect(redeem.status).toBe(200);
    const pending = await booth("vouchers", "list", "--status", "PENDING", "--json");
    expect(JSON.parse(pending.stdout).data.map((v: { code: string }) => v.code)).toEqual([vouchers[1]?.code]);
    const revoked = await booth("vouchers", "revoke", vouchers[1]?.id ?? "");
    expect(revoked.stdout).toContain("Revoked");
    const again = await booth("vouchers", "revoke", vouchers[1]?.id ?? "");
    expect(again.code).toBe(5);
    expect(again.stderr).toContain("already been redeemed or revoked");
    expect((await booth("vouchers", "list")).stdout).toMatch(/code\s+status/);
  }, 60_000);

  it("creates, moves and lists seasons; closing one that has not ended is refused", async () => {
    // The seed's demo season runs now; this one comes after it.
    const day = 86_400_000;
    const start = new Date(Date.now() + 200 * day).toISOString();
    const end = new Date(Date.now() + 230 * day).toISOString();
    const made = await booth("seasons", "create", "CLI Season", "--start", start, "--end", end, "--json");
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).id;
    const overlapping = await booth("seasons", "create", "Overlap", "--start", start, "--end", end);
    expect(overlapping.code).toBe(5);
    expect(overlapping.stderr).toMatch(/^Error 409: /);
    expect((await booth("seasons", "current")).stdout).toContain("Demo season");
    expect((await booth("seasons", "list", "--json")).stdout).toContain("CLI Season");
    const renamed = await booth("seasons", "update", id, "--name", "CLI Season II", "--json");
    expect(JSON.parse(renamed.stdout).name).toBe("CLI Season II");
    const early = await booth("seasons", "close", id);
    expect(early.code).toBe(5);
    expect(early.stderr).toContain("has not ended yet");
    expect((await booth("seasons", "delete", id)).stdout).toContain("Deleted");
  }, 60_000);

  it("makes, changes, gives and takes back avatars; awards points in the current season", async () => {
    const fan = await t.createUser({ nickname: "avatarfan" });
    const made = await booth("avatars", "create", "cli-cat", "--name", "CLI cat", "--json");
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ slug: "cli-cat", avatarStatus: "PUBLIC" });
    const again = await booth("avatars", "create", "cli-cat", "--name", "CLI cat");
    expect(again.code).toBe(5);
    expect(again.stderr).toContain("An avatar with this slug exists.");
    await booth("avatars", "update", "cli-cat", "-s", "PRIVATE", "--name", "Secret cat");
    expect((await booth("avatars", "show", "cli-cat", "--json")).stdout).toContain("Secret cat");
    expect((await booth("avatars", "check", "cli-cat", fan.user.uuid)).stdout).toContain("not allowed");
    expect((await booth("avatars", "assign", "cli-cat", fan.user.uuid)).code).toBe(0);
    expect((await booth("avatars", "check", "cli-cat", fan.user.uuid)).stdout).toContain("allowed (MANUAL");
    expect((await booth("avatars", "assign", "cli-cat", fan.user.uuid, "--remove")).stdout).toContain(
      "Took cli-cat back",
    );
    expect((await booth("avatars", "check", "cli-cat", fan.user.uuid)).stdout).toContain("not allowed");
    expect((await booth("avatars", "delete", "cli-cat")).code).toBe(0);
    expect((await booth("avatars", "show", "cli-cat")).stderr).toContain("Avatar not found.");

    const first = await booth("points", "give", fan.user.uuid, "7", "-r", "best set", "-k", "cli-1");
    expect(first.stdout, first.stderr).toContain("Awarded; balance now 7");
    expect((await booth("points", "give", fan.user.uuid, "7", "-k", "cli-1")).stdout).toContain("Already awarded");
    const ranking = JSON.parse((await booth("seasons", "ranking", "--json")).stdout);
    expect(ranking.data).toContainEqual(expect.objectContaining({ userUuid: fan.user.uuid, balance: 7 }));
  }, 60_000);

  it("stocks the shop: puts bundles on sale, reprices, retires and restocks them, and manages consumables", async () => {
    const made = await booth(
      "shop",
      "bundles",
      "create",
      "Pocket of tokens",
      "--tokens",
      "550",
      "--price",
      "9.99",
      "--json",
    );
    expect(made.code, made.stderr).toBe(0);
    const bundle = JSON.parse(made.stdout);
    expect(bundle).toMatchObject({ name: "Pocket of tokens", tokens: 550, price: "9.99 USD" });
    const bad = await booth("shop", "bundles", "create", "Odd", "--tokens", "5", "--price", "cheap");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--price: a price such as 4.99");

    expect((await booth("shop", "bundles", "update", bundle.id, "--price", "7.99")).stdout).toContain(
      "550 tokens for 7.99 USD",
    );
    const forSale = async () =>
      JSON.parse((await booth("shop", "bundles", "list", "--json")).stdout).find(
        (b: { id: string }) => b.id === bundle.id,
      ).forSale;
    expect(await forSale()).toBe(true);
    expect((await booth("shop", "bundles", "retire", bundle.id)).stdout).toContain("off sale");
    expect(await forSale()).toBe(false);
    expect((await booth("shop", "bundles", "restock", bundle.id)).stdout).toContain("on sale again");
    expect(await forSale()).toBe(true);

    const confetti = JSON.parse(
      (await booth("shop", "consumables", "create", "Confetti", "--cost", "10", "--json")).stdout,
    );
    expect(confetti).toMatchObject({ name: "Confetti", tokenCost: 10, displayType: "small" });
    await booth("shop", "consumables", "update", confetti.id, "--cost", "15", "--cover");
    const shop = await booth("shop", "list");
    expect(shop.stdout).toMatch(/Pocket of tokens\s+550\s+7\.99 USD\s+true/);
    expect(shop.stdout).toMatch(/Confetti\s+15\s+cover/);
    expect((await booth("shop", "consumables", "delete", confetti.id)).code).toBe(0);
    expect((await booth("shop", "consumables", "list")).stdout).not.toContain("Confetti");
  }, 60_000);

  it("creates, shows, changes and promotes rooms", async () => {
    const dj = await t.createUser({ nickname: "roomowner" });
    const made = await booth("rooms", "create", "CLI Room", "--djs", "3", "--owner", dj.user.uuid, "--json");
    expect(made.code, made.stderr).toBe(0);
    const room = JSON.parse(made.stdout);
    expect(room).toMatchObject({ slug: "cli-room", numberOfDjs: 3 });
    const shown = JSON.parse((await booth("rooms", "show", "cli-room", "--json")).stdout);
    expect(shown.uuid).toBe(room.uuid);
    const owned = await t.request("GET", "/api/room-service/rooms/owned-rooms/list", { token: dj.token });
    expect(owned.body.map((r: { uuid: string }) => r.uuid)).toContain(room.uuid);
    await booth(
      "rooms",
      "update",
      "cli-room",
      "--songs-per-dj",
      "2",
      "--description",
      "made by the CLI",
      "--waitlist",
      "on",
      "--idle-dj",
      "10",
    );
    expect(JSON.parse((await booth("rooms", "show", room.uuid, "--json")).stdout)).toMatchObject({
      songsPerDj: 2,
      description: "made by the CLI",
      waitlistEnabled: true,
      idleDjMinutes: 10,
    });
    const wrong = await booth("rooms", "update", "cli-room", "--waitlist", "maybe");
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("--waitlist takes on or off, not maybe");
    await booth("rooms", "update", "cli-room", "--idle-dj", "off");
    expect(JSON.parse((await booth("rooms", "show", room.uuid, "--json")).stdout).idleDjMinutes).toBeNull();
    // The room crate: one of the owner's playlists, or none.
    const crate = await t.request("POST", "/api/playlist-service/crate", {
      token: dj.token,
      body: { name: "Fill-in" },
    });
    const others = await t.request("POST", "/api/playlist-service/crate", {
      token: (await t.createUser()).token,
      body: {},
    });
    expect((await booth("rooms", "update", "cli-room", "--room-crate", crate.body.crateUuid)).code).toBe(0);
    expect(JSON.parse((await booth("rooms", "show", room.uuid, "--json")).stdout).roomCrateId).toBe(
      crate.body.crateUuid,
    );
    const notTheirs = await booth("rooms", "update", "cli-room", "--room-crate", others.body.crateUuid);
    expect(notTheirs.code).not.toBe(0);
    expect(notTheirs.stderr).toContain("The room crate must be one of the room owner's crates.");
    const junk = await booth("rooms", "update", "cli-room", "--room-crate", "fill-in");
    expect(junk.stderr).toContain("--room-crate takes a crate's id or none, not fill-in");
    await booth("rooms", "update", "cli-room", "--room-crate", "none");
    expect(JSON.parse((await booth("rooms", "show", room.uuid, "--json")).stdout).roomCrateId).toBeNull();
    expect((await booth("rooms", "promote", "cli-room")).stdout).toContain("promoted");
    expect((await booth("rooms", "list", "--promoted")).stdout).toContain("cli-room");
    expect((await booth("rooms", "list", "--all", "-f", "slug||$eq||cli-room", "--json")).stdout).toContain(room.uuid);
    expect((await booth("rooms", "plays", "cli-room")).stdout).toContain("0 in all");
    // Nobody is in it, so it has no live state.
    const live = await booth("rooms", "show", "cli-room", "--live");
    expect(live.code).toBe(4);
    expect(live.stderr).toContain("This room is not live: nobody is in it.");
    expect((await booth("rooms", "show", "no-such-room")).stderr).toContain("404");
  }, 60_000);

  it("finds and moderates users, and credits tokens once per key", async () => {
    const target = await t.createUser({ email: "cli-target@example.com" });
    const list = await booth("users", "list", "-f", "email||$eq||cli-target@example.com", "--json");
    expect(JSON.parse(list.stdout).data[0].uuid).toBe(target.user.uuid);
    expect((await booth("users", "ban", target.user.uuid, "-r", "spam")).code).toBe(0);
    const login = await t.request("POST", "/api/user-service/auth/login", {
      body: { email: target.email, password: target.password },
    });
    expect(login.body.message).toBe("This account is banned.");
    expect((await booth("users", "unban", target.user.uuid)).code).toBe(0);
    expect((await booth("users", "capability", target.user.uuid, "uploadMusic")).stdout).toContain("uploadMusic");
    // The ban ended the old session; sign in again.
    const account = await t.request("POST", "/api/merch-service/api/v1/token-accounts", {
      token: await t.tokenFor(target.user.uuid),
    });
    const first = await booth("tokens", "credit", account.body.id, "50", "-r", "prize", "-k", "prize-1");
    expect(first.stdout, first.stderr).toContain("balance now 50");
    expect((await booth("tokens", "credit", account.body.id, "50", "-r", "prize", "-k", "prize-1")).stdout).toContain(
      "balance now 50",
    );
    expect((await booth("users", "show", crypto.randomUUID())).stderr).toContain("404");
    expect((await booth("users", "badges", target.user.uuid, "VERIFIED", "STAFF")).stdout).toContain("VERIFIED, STAFF");
    expect((await booth("users", "badges", target.user.uuid, "STAFF", "--remove")).stdout).toContain(
      "badges: VERIFIED",
    );
    expect((await booth("users", "badges", target.user.uuid, "SHINY")).stderr).toContain("unknown badge SHINY");
    await booth("users", "profile", target.user.uuid, "--bio", "from the CLI", "--color", "#123456");
    const shown = JSON.parse((await booth("users", "show", target.user.uuid, "--json")).stdout);
    expect(shown.profile).toMatchObject({ bio: "from the CLI", color: "#123456" });
    const made = await booth(
      "users",
      "create",
      "cli-made@example.com",
      "-p",
      "a long password",
      "-n",
      "climade",
      "--json",
    );
    expect(JSON.parse(made.stdout)).toMatchObject({ email: "cli-made@example.com", roles: ["user"] });
    const twice = await booth("users", "create", "cli-made@example.com", "-p", "a long password");
    expect(twice.stderr).toContain("This email is already registered.");
    expect((await booth("users", "deactivate", JSON.parse(made.stdout).uuid)).stdout).toContain("deactivated");
    expect((await booth("users", "reactivate", JSON.parse(made.stdout).uuid)).stdout).toContain("reactivated");
    // Sixteen runs of the real binary, each a new Node process.
  }, 120_000);

  it("reads a newcomer's code from the outbox, for admins only", async () => {
    const email = "cli-newcomer@example.com";
    const signUp = await t.request("POST", "/api/user-service/users/sign-up", {
      body: { email, password: "correct horse battery" },
    });
    expect(signUp.status).toBe(201);
    const code = /code is (\d{6})/.exec((await t.lastMessage(email))?.body ?? "")?.[1];

    const plain = await t.createUser();
    expect((await booth("login", "-e", plain.email, "-p", plain.password)).code).toBe(0);
    const refused = await booth("outbox");
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("Error 403: Forbidden");
    expect(refused.stdout).not.toContain(email);

    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await booth("login", "-e", admin.email, "-p", admin.password)).code).toBe(0);
    const mine = await booth("outbox", "--to", "CLI-Newcomer@example.com", "--limit", "1");
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout).toMatch(
      new RegExp(
        `Email to ${email}\n {2}Subject: Verify your email for Booth\n {2}Your Booth verification code is ${code}\\.`,
      ),
    );
    expect(mine.stdout).toContain("1 of 1 in all");
    await t.request("GET", "/api/user-service/auth/magic-link", { query: { email } });
    const latest = JSON.parse((await booth("outbox", "--limit", "2", "--json")).stdout);
    expect(latest.data.map((m: { subject: string }) => m.subject)).toEqual([
      "Your Booth sign-in link",
      "Verify your email for Booth",
    ]);
    expect(latest.data[0]).toMatchObject({ channel: "email", to: email });
    expect(latest.data[0].body).toContain("/magic-link?token=");
    expect((await booth("outbox", "--to", "nobody@example.com")).stdout.trim()).toBe("(none)");
    expect((await booth("outbox", "--limit", "0")).stderr).toContain("Error 400");
  }, 60_000);

  it("lists the background jobs and how they went, for admins only", async () => {
    const uploadId = crypto.randomUUID();
    const id = await t.deps.jobs.send("transcode", { uploadId });
    const plain = await t.createUser();
    expect((await booth("login", "-e", plain.email, "-p", plain.password)).code).toBe(0);
    const refused = await booth("jobs");
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("Error 403: Forbidden");
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await booth("login", "-e", admin.email, "-p", admin.password)).code).toBe(0);
    // A transcode of an upload that is gone completes with nothing to do.
    await until(
      async () => (await t.deps.jobs.get("transcode", id ?? ""))?.state === "completed",
      "the transcode job completed",
      60_000,
    );
    const listed = await booth("jobs", "--kind", "transcode", "--limit", "5");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`transcode +completed +1 run +${uploadId}`));
    const json = JSON.parse((await booth("jobs", "--state", "completed", "--json")).stdout);
    expect(json.data.map((j: { id: string }) => j.id)).toContain(id);
    expect((await booth("jobs", "--state", "exploded")).stderr).toContain("Allowed choices are");
  }, 60_000);

  it("runs from its sources too, as bin/booth.mjs does in the repository (through tsx)", async () => {
    const { stdout } = await run(process.execPath, [
      new URL("../bin/booth.mjs", import.meta.url).pathname,
      "--version",
    ]);
    expect(stdout.trim()).toBe(BOOTH_VERSION);
  });

  it("has help with examples, completion, and logs out", async () => {
    expect((await booth("vouchers", "create", "--help")).stdout).toContain("Example");
    expect((await booth("completion")).stdout).toContain("complete -F _booth booth");
    expect((await booth("logout")).stdout).toContain("Signed out.");
    const after = await booth("whoami");
    expect(after.code).toBe(3);
    expect(after.stderr).toContain("401");
  }, 60_000);
});
