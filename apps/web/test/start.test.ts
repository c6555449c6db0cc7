/**
 * `npm start` (scripts/start.mjs): each app on its own port, told the others' addresses; one line per expected
 * condition; everything stops, loudly, when one app dies.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { importJWK, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appEnvironments, cleanLine } from "../../../scripts/start.mjs";
import { freePort, spawnChild } from "../../edge/src/testing/child-server.ts";
import { buildOnce, until, webRoot } from "./harness.ts";

const repo = resolve(webRoot, "../..");

describe("the ports npm start hands out", () => {
  it("gives each app its own port and the others' addresses", () => {
    const env = appEnvironments({ EDGE_PORT: "9001", PARTY_PORT: "9002", WEB_PORT: "9003" });
    expect(env.ports).toEqual({ edge: 9001, party: 9002, web: 9003 });
    expect(env.edge).toMatchObject({
      PORT: "9001",
      BOOTH_PARTY_URL: "http://127.0.0.1:9002",
      WEB_URL: "http://127.0.0.1:9003",
      TRUST_PROXY: "127.0.0.1, ::1",
    });
    expect(env.party).toMatchObject({ PORT: "9002", BOOTH_EDGE_URL: "http://127.0.0.1:9001" });
    expect(env.web).toMatchObject({
      WEB_PORT: "9003",
      BOOTH_EDGE_URL: "http://127.0.0.1:9001",
      BOOTH_PARTY_URL: "http://127.0.0.1:9002",
    });
  });

  it("moves only the edge with PORT, and keeps the defaults otherwise", () => {
    const moved = appEnvironments({ PORT: "9100" });
    expect(moved.ports).toEqual({ edge: 9100, party: 1999, web: 3000 });
    expect(moved.party.PORT).toBe("1999");
    expect(moved.party.BOOTH_EDGE_URL).toBe("http://127.0.0.1:9100");
    expect(appEnvironments({ PORT: "9100", EDGE_PORT: "9200" }).ports.edge).toBe(9200);
    expect(appEnvironments({}).ports).toEqual({ edge: 8787, party: 1999, web: 3000 });
  });

  it("keeps the addresses and trust the environment sets", () => {
    const env = appEnvironments({
      PARTY_URL: "http://rooms.internal:80",
      BOOTH_EDGE_URL: "http://edge.internal:80",
      WEB_URL: "https://booth.example:8443",
      TRUST_PROXY: "",
    });
    expect(env.web).toMatchObject({
      BOOTH_EDGE_URL: "http://edge.internal:80",
      BOOTH_PARTY_URL: "http://rooms.internal:80",
    });
    expect(env.party.BOOTH_EDGE_URL).toBe("http://edge.internal:80");
    expect(env.edge).toMatchObject({ WEB_URL: "https://booth.example:8443", TRUST_PROXY: "" });
    expect(env.ports.web).toBe(8443);
  });

  it("refuses a port that is not one", () => {
    expect(() => appEnvironments({ PARTY_PORT: "party" })).toThrow("not a port: party");
    expect(() => appEnvironments({ WEB_PORT: "70000" })).toThrow("not a port: 70000");
  });

  it("writes no escape codes where the output is not a terminal", () => {
    const partykit = "\u001b[2K\u001b[1A\u001b[2K\u001b[G\u001b[31m[pk:inf] Ready\u001b[0m";
    expect(cleanLine(partykit, false)).toBe("[pk:inf] Ready");
    // In a terminal colours stay, but no cursor move that would wipe out the line's prefix.
    expect(cleanLine(partykit, true)).toBe("\u001b[31m[pk:inf] Ready\u001b[0m");
  });
});

/** Runs `node scripts/start.mjs` with these settings on a fresh DATA_DIR; its output is kept. */
function start(env: Record<string, string>) {
  // The test's own settings stay out: the run sees only what a newcomer's shell would set.
  const environment: NodeJS.ProcessEnv = { ...process.env, SEED_DEMO: "false", ...env };
  const ours = [
    "PORT",
    "WEB_URL",
    "PUBLIC_URL",
    "PARTY_URL",
    "BOOTH_PARTY_URL",
    "BOOTH_API_URL",
    "BOOTH_EDGE_URL",
    "TRUST_PROXY",
  ];
  for (const name of [...ours, "NODE_ENV", "DATABASE_URL", "REDIS_URL"]) if (!(name in env)) delete environment[name];
  return spawnChild({ args: ["scripts/start.mjs"], cwd: repo, env: environment });
}

describe("npm start", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "booth-start-"));
    // The web's build, shared with the other browser tests; `npm start` then finds it fresh.
    await buildOnce();
  }, 240_000);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("starts each app on its port, each reaching the others, and stops them all on a signal", {
    timeout: 240_000,
  }, async () => {
    const ports = await freePorts();
    const run = start({
      DATA_DIR: join(dataDir, "up"),
      ...ports.env,
    });
    try {
      const web = `http://127.0.0.1:${ports.web}`;
      // The web's server reaches the edge: a guest's live token comes from there. The web may answer before the
      // edge does: it waits for it rather than failing.
      const live = await Promise.race([
        until(
          async () => {
            const res = await fetch(`${web}/live-token`).catch(() => null);
            return res?.ok ? ((await res.json()) as { token: string }) : null;
          },
          "a live token through the web",
          120_000,
        ),
        run.exited.then((code) => {
          throw new Error(`npm start exited with ${code}:\n${run.output()}`);
        }),
      ]);
      expect(live?.token.split(".")).toHaveLength(3);
      // The browser is told where the live rooms are.
      const page = await (await fetch(web)).text();
      expect(page).toContain(`http://127.0.0.1:${ports.party}`);
      expect(page).toContain(`http://127.0.0.1:${ports.edge}`);
      // The edge answers on its port.
      const docs = await fetch(`http://127.0.0.1:${ports.edge}/api/user-service/auth/pub-key`);
      expect(docs.status).toBe(200);
      // The rooms answer on theirs and reach the edge: they check a service token signed with the edge's key against
      // the edge's JWKS (a room nobody is in, rather than 503 "The edge cannot be reached.").
      const serviceToken = await edgeServiceToken(join(dataDir, "up"));
      const room = await until(
        async () => {
          const res = await fetch(`http://127.0.0.1:${ports.party}/parties/main/00000000-0000-4000-8000-000000000001`, {
            headers: { authorization: `Bearer ${serviceToken}` },
          }).catch(() => null);
          return res ? { status: res.status, body: await res.text() } : null;
        },
        "the rooms",
        60_000,
      );
      expect(room).toEqual({ status: 404, body: expect.stringContaining("This room is not live") });
      // A favicon where browsers look by habit.
      const icon = await fetch(`${web}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/x-icon");
      expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exited).toBe(0);
    const output = run.output();
    expect(output).toContain(`[web] web: Booth is at http://127.0.0.1:${ports.web}`);
    // Piped output: no escape codes, no blank prefixed lines, no stack traces.
    expect(output).not.toContain("\u001b");
    expect(output).not.toMatch(/^\[\w+\] *$/m);
    expect(output).not.toMatch(/^\[\w+\]\s+at /m);
    // Every app stopped with it: their ports are free again.
    for (const port of [ports.edge, ports.party, ports.web])
      await until(() => canListen(port), `port ${port} free`, 15_000);
  });

  it("stops everything, naming the app, when one dies", async () => {
    const ports = await freePorts();
    // An edge whose database does not answer exits at once; the others must not run on without it.
    const run = start({
      DATA_DIR: join(dataDir, "dies"),
      ...ports.env,
      DATABASE_URL: "postgres://nobody@127.0.0.1:9/booth",
    });
    const code = await run.exited;
    expect(code).not.toBe(0);
    expect(run.output()).toMatch(/booth: the edge \(API\) \(edge\) exited with code \d+; see its lines above\./);
    // Its lines above: one, no stack trace.
    expect(run.output()).toMatch(
      /^\[edge\] Booth edge did not start: (.+: )?127\.0\.0\.1:9 does not answer \(ECONNREFUSED\)/m,
    );
    expect(run.output()).not.toMatch(/^\[\w+\]\s+at /m);
    for (const port of [ports.party, ports.web]) await until(() => canListen(port), `port ${port} free`, 15_000);
  }, 120_000);

  it("starts nothing when a port is taken, and says which", async () => {
    const ports = await freePorts();
    const holder = await hold(ports.party);
    try {
      const run = start({
        DATA_DIR: join(dataDir, "taken"),
        ...ports.env,
      });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(
        `booth: nothing started. port ${ports.party} (the live rooms) is in use: stop what holds it, or set PARTY_PORT.`,
      );
    } finally {
      holder.close();
    }
  });

  it("the rooms started alone stop with one line when their port is taken", async () => {
    const port = await freePort();
    const holder = await hold(port);
    const run = spawnChild({
      command: "npm",
      args: ["run", "start", "--silent", "-w", "apps/rooms-party"],
      cwd: repo,
      env: {
        ...process.env,
        PORT: String(port),
        BOOTH_SERVICE_SECRET: "x".repeat(32),
        DATA_DIR: join(dataDir, "alone"),
      },
      // Its own process group: a failed test stops wrangler and workerd too.
      detached: true,
    });
    try {
      const code = await run.exited;
      const output = run.output();
      expect(code).toBe(1);
      expect(output).toContain(`rooms-party: port ${port} is in use (PORT; PARTY_PORT under the top-level npm start)`);
    } finally {
      holder.close();
      run.kill("SIGKILL");
    }
  });
});

/** A short service token signed with the key the edge keeps in its data folder, as the edge signs its own. */
async function edgeServiceToken(dataDir: string) {
  const jwk = JSON.parse(readFileSync(join(dataDir, "jwt-private.jwk.json"), "utf8")) as JWK;
  return new SignJWT({ type: "service", roles: [], badges: [], ver: 0 })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid ?? "booth" })
    .setIssuer("booth")
    .setSubject("service:test")
    .setIssuedAt()
    .setExpirationTime("60s")
    .sign(await importJWK(jwk, "ES256"));
}

/** Three free ports, one for each app, and the environment that gives them to `npm start`. */
async function freePorts() {
  const [edge, party, web] = [await freePort(), await freePort(), await freePort()];
  return { edge, party, web, env: { EDGE_PORT: String(edge), PARTY_PORT: String(party), WEB_PORT: String(web) } };
}

function hold(port: number): Promise<Server> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(port, "127.0.0.1", () => done(server));
  });
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, () => server.close(() => done(true)));
  });
}
