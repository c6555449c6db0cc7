import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./app.ts";
import { generateKeys } from "./lib/tokens.ts";
import { freePort, waitForServer } from "./testing/child-server.ts";
import { EDGE_DIR, NODE_ENTRY, spawnEdgeEntry } from "./testing/edge-entry.ts";
import { expectSettingsListed, SECRETS_CACHE_AND_DATABASE } from "./testing/production.ts";
import { declareTooLarge } from "./testing/raw-upload.ts";
import { hasFrameIn, sentryIngest } from "./testing/sentry.ts";
import { until } from "./testing/until.ts";

// The entries only build dependencies from the environment and serve the app; these tests start each one as a user
// would, on the embedded defaults in a fresh data folder, and call it over HTTP.
let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  child?.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function startEntry(
  command: string,
  args: readonly string[],
  env: Record<string, string> = { SEED_DEMO: "false" },
) {
  const port = await freePort();
  dataDir = await mkdtemp(join(tmpdir(), "booth-entry-"));
  const run = spawnEdgeEntry({ port, dataDir, env, command, args });
  child = run.child;
  const key = await waitForServer(run, {
    name: "the entry",
    ready: async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/user-service/auth/pub-key`);
      return res.ok ? await res.json() : undefined;
    },
    timeoutMs: 90_000,
  });
  return { port, output: run.output, key };
}

/**
 * SIGTERM while a request is in flight (its body half sent): the entry serves nothing new, still answers that
 * request from the database, then exits 0 saying every request was answered. The request asks to continue
 * (`Expect: 100-continue`): the entry's "100 Continue" says it has the request, so the signal comes after that
 * however slow the machine, and the rest of the body only once new requests are turned away.
 */
async function expectGracefulStop(port: number, output: () => string) {
  const body = JSON.stringify({ email: "nobody@booth.test", password: "not the password" });
  let sendRest: () => void = () => undefined;
  let held: () => void = () => undefined;
  const inHand = new Promise<void>((r) => {
    held = r;
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/user-service/auth/login",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          expect: "100-continue",
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.on("continue", () => {
      req.write(body.slice(0, 10));
      held();
    });
    sendRest = () => req.end(body.slice(10));
  });
  await inHand;
  const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
  child?.kill("SIGTERM");
  // Nothing new is served meanwhile: the connection is refused (Node), or answered 503 (Deno, which must keep
  // listening until the requests it began are read).
  await until(
    () =>
      fetch(`http://127.0.0.1:${port}/healthz`).then(
        (res) => res.status === 503,
        () => true,
      ),
    "the entry turning new requests away",
    20_000,
  );
  sendRest();
  const { status, text } = await answer;
  expect(status).toBe(401);
  expect(JSON.parse(text).message).toBeTruthy();
  expect(await exited).toBe(0);
  expect(output()).toMatch(/stopped \(every request answered\)/);
}

/**
 * A body declared larger than the edge takes (16 MB + 1 byte, to a JSON route) gets its 413 through the entry's own
 * server, read by a client only once it has sent every byte it declared (a browser's upload), never a reset.
 */
async function expectReadableRefusal(port: number) {
  const seen = await declareTooLarge({
    port,
    method: "POST",
    path: "/api/user-service/users/profile",
    headers: { "content-type": "application/json" },
    declared: MAX_BODY_BYTES + 1,
    reads: "browser",
  });
  expect(seen.errors).toEqual([]);
  expect(seen.status).toBe(413);
  expect(JSON.parse(seen.body).message).toBe("The request body is larger than 16 MB.");
}

describe("entries", () => {
  it("the Node entry serves the API and the docs, and prints a working first admin", async () => {
    const { port, output, key } = await startEntry(process.execPath, NODE_ENTRY);
    expect(key.alg).toBe("ES256");
    const docs = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("/api/user-service/openapi.json");
    const printed = output().match(/First admin created: (\S+) \/ (\S+)/);
    expect(printed).not.toBeNull();
    const login = await fetch(`http://127.0.0.1:${port}/api/user-service/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: printed?.[1], password: printed?.[2] }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user.roles).toContain("admin");
    await expectReadableRefusal(port);
    await expectGracefulStop(port, output);
    // Each request has its access line, the last one (the login answered while stopping) written as the entry exited:
    // the log's lines leave through an asynchronous stream, and what it still held is written before the exit.
    const logins = output()
      .split("\n")
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { path?: string; status?: number; requestId?: string }];
        } catch {
          return [];
        }
      })
      .filter((entry) => entry.path === "/api/user-service/auth/login");
    expect(logins.map((entry) => entry.status)).toEqual([200, 401]);
    expect(logins.every((entry) => typeof entry.requestId === "string")).toBe(true);
    // A process that loads TypeScript, migrates a fresh database and hashes a password: slow on a busy machine.
  }, 90_000);

  it("in production, stops naming every missing setting; with them, starts without a password, seed or token file", async () => {
    const node: [string, readonly string[]] = [process.execPath, NODE_ENTRY];
    // With a typo'd number and a bad address too: every problem named in the one line, before anything is made.
    const refusal = await startEntry(...node, {
      NODE_ENV: "production",
      EMAIL_RESEND_SECONDS: "6o",
      BOOTH_PUBLIC_EDGE_URL: "api.booth.example",
    }).then(
      () => "",
      (err: Error) => err.message,
    );
    expect(child?.exitCode).toBe(1);
    expect(refusal).toContain("Booth is in production mode");
    expectSettingsListed(refusal, SECRETS_CACHE_AND_DATABASE);
    expect(refusal).not.toMatch(/\n\s+at /);
    const [line, ...more] = refusal
      .replace(/^the entry exited:\n/, "")
      .trim()
      .split("\n");
    expect(more).toEqual([]);
    expect(line).toMatch(/^Booth edge cannot start: /);
    expect(line).toContain('EMAIL_RESEND_SECONDS is not a whole number 0 or more: "6o"');
    expect(line).toContain('BOOTH_PUBLIC_EDGE_URL is not an address: "api.booth.example"');
    expect(await readdir(dataDir ?? "")).toEqual([]);
    await rm(dataDir ?? "", { recursive: true, force: true });

    const { privateJwk } = await generateKeys();
    const { default: webpush } = await import("web-push");
    const vapid = webpush.generateVAPIDKeys();
    const { output } = await startEntry(...node, {
      NODE_ENV: "production",
      JWT_PRIVATE_KEY: JSON.stringify(privateJwk),
      BOOTH_SERVICE_SECRET: "s".repeat(40),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      BOOTH_SINGLE_INSTANCE: "true",
      ADMIN_EMAIL: "",
      ADMIN_PASSWORD: "",
      SEED_DEMO: "",
    });
    await until(() => output().includes("No admin account: set ADMIN_EMAIL and ADMIN_PASSWORD"), "the admin notice");
    expect(output()).not.toContain("First admin created");
    expect(output()).not.toContain("Demo catalogue");
    const kept = await readdir(dataDir ?? "");
    for (const secret of ["jwt-private.jwk.json", "service-secret"]) expect(kept).not.toContain(secret);
    expect(kept.filter((name) => /vapid/i.test(name))).toEqual([]);
  }, 120_000);

  it("the Deno entry serves the same API", async () => {
    const deno = join(EDGE_DIR, "node_modules/.bin/deno");
    const bin = existsSync(deno) ? deno : join(EDGE_DIR, "../../node_modules/.bin/deno");
    const ingest = await sentryIngest();
    const { key, port, output } = await startEntry(
      bin,
      ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "--allow-sys", "src/main.deno.ts"],
      { SEED_DEMO: "false", SENTRY_DSN: ingest.dsn },
    );
    expect(key.alg).toBe("ES256");
    // Errors go to Sentry through its Deno SDK, with their stack frames.
    const printed = output().match(/First admin created: (\S+) \/ (\S+)/);
    const login = await fetch(`http://127.0.0.1:${port}/api/user-service/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: printed?.[1], password: printed?.[2] }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const test = await fetch(`http://127.0.0.1:${port}/api/upload-service/sentry-testing`, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(await test.json()).toMatchObject({ reporter: "sentry" });
    const event = await ingest.event((e) =>
      /Test error from the upload service/.test(e.exception.values[0]?.value ?? ""),
    );
    expect(hasFrameIn(event, "sentry-testing.ts")).toBe(true);
    ingest.close();
    // Deno's own server reads the rest of a body it answered early: the same readable refusal, with no change of ours.
    await expectReadableRefusal(port);
    await expectGracefulStop(port, output);
  }, 90_000);
});
