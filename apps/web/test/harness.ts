/**
 * The whole product for a browser test: the edge (a real HTTP server on a fresh database), `wrangler dev`, and the
 * built web app as its own process, with Debian's chromium driven by playwright-core.
 *
 *   const stack = await startStack();            // in beforeAll (allow ~3 minutes)
 *   const alice = await stack.person();          // a browser context of its own (own cookies)
 *   await signUp(alice.page, { nickname: "alice" });
 *   await verifyEmail(stack, alice.page, email);
 *   await shot(alice.page, "room");              // test/screenshots/room.png
 *   await stack.stop();                          // in afterAll
 */
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestApp, type TestApp } from "@booth/edge/testing";
import { serve } from "@hono/node-server";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { defaultConfig } from "../../edge/src/deps.ts";
import { partyLiveRooms } from "../../edge/src/ports/live-rooms.ts";
import { printingOutbox } from "../../edge/src/ports/messaging.ts";
import { seedDemoCatalogue } from "../../edge/src/seed/demo-catalogue.ts";
import { answers, startChildServer } from "../../edge/src/testing/child-server.ts";
import { freePort, startParty, until } from "../../rooms-party/test/helpers.ts";
import { buildIfStale } from "../server.ts";

export { until };
export const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(webRoot, "test", "screenshots");

/** Builds the web app once for every test file of the run (files run in parallel workers: a lock directory). */
export async function buildOnce() {
  const lock = join(tmpdir(), "booth-web-build.lock");
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds; a lock older than 3 minutes is a dead worker's.
      // (The lock may go between two looks at it: stat without throwing.)
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error("timed out waiting for another test's web build");
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    buildIfStale({ quiet: true });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function tsxCli() {
  return join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "cli.mjs");
}

/** The built web app as its own process (production mode), on `port`. */
export async function startWeb(port: number, env: Record<string, string>) {
  const url = `http://127.0.0.1:${port}`;
  const run = await startChildServer({
    name: "the web server",
    args: [tsxCli(), join(webRoot, "server.ts")],
    cwd: webRoot,
    env: {
      SESSION_SECRET: "the web tests' session secret",
      ...process.env,
      ...env,
      WEB_PORT: String(port),
      NODE_ENV: "production",
    },
    ready: () => answers(`${url}/favicon.svg`),
  });
  return { url, output: run.output, stop: () => run.stop(3000), run };
}

/** Debian's chromium, headless, allowed to play audio without a gesture. Missing: a loud failure, never a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The browser tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does it).`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--autoplay-policy=no-user-gesture-required",
      "--no-sandbox",
      "--disable-dev-shm-usage",
      "--disable-gpu",
      "--mute-audio",
    ],
  });
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and console errors the page reported. */
  errors: string[];
}

export interface StartOptions {
  /** Demo tracks to load (synthesised and transcoded like uploads), 0 for none. */
  songs?: number;
  /** How long each of them plays (30 s unless set). */
  songSeconds?: number;
  /** How long a disconnected user keeps their seat. */
  graceMs?: number;
}

export async function startStack(options: StartOptions = {}) {
  // What has been started so far, stopped again (last first) when a later step fails: a failed start leaves no
  // server, party or browser running behind the test run.
  const started: (() => Promise<unknown> | unknown)[] = [];
  const undo = async () => {
    for (const stop of started.reverse()) await Promise.resolve(stop()).catch(() => undefined);
  };
  const browserStarting = launchChromium();
  // Never an unhandled rejection: its failure is thrown where it is awaited below.
  browserStarting.catch(() => undefined);
  started.push(async () => (await browserStarting.catch(() => null))?.close());
  try {
    const build = buildOnce();
    build.catch(() => undefined);
    const [webPort, partyPort] = [await freePort(), await freePort()];
    const webUrl = `http://127.0.0.1:${webPort}`;
    const t: TestApp = await createTestApp({
      liveRooms: partyLiveRooms({ baseUrl: `http://127.0.0.1:${partyPort}`, serviceToken: () => t.serviceToken() }),
      config: {
        ...defaultConfig,
        webUrl,
        providers: { spotifyApiUrl: "http://127.0.0.1:9", appleMusicApiUrl: "http://127.0.0.1:9" },
      },
    });
    started.push(() => t.close());
    // As on the embedded default (no email or SMS provider), each message is also printed in the edge's log: here.
    const edgeLog: string[] = [];
    t.deps.mailer = printingOutbox(t.deps.mailer, (text) => edgeLog.push(text));
    t.deps.sms = printingOutbox(t.deps.sms, (text) => edgeLog.push(text));
    // Tokens are checked by other processes (the party) against the real time.
    t.clock.now = () => new Date();
    const edgeServer = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
    started.push(() => edgeServer.close());
    await new Promise((r) => edgeServer.once("listening", r));
    const edgeUrl = `http://127.0.0.1:${(edgeServer.address() as { port: number }).port}`;
    // The edge listens on a port chosen at start; the addresses it writes (upload URLs, its public URL) must name that port.
    t.deps.config.publicUrl = edgeUrl;
    const persistDir = await mkdtemp(join(tmpdir(), "booth-web-party-"));
    started.push(() => rm(persistDir, { recursive: true, force: true }));
    const party = await startParty({
      port: partyPort,
      persistDir,
      vars: {
        BOOTH_EDGE_URL: edgeUrl,
        BOOTH_PRESENCE_GRACE_MS: String(options.graceMs ?? 20_000),
      },
      secrets: { BOOTH_SERVICE_SECRET: t.serviceSecret },
    });
    started.push(() => party.stop());
    await build;
    const web = await startWeb(webPort, {
      BOOTH_API_URL: edgeUrl,
      PARTY_URL: party.url,
      SESSION_SECRET: "test-session-secret",
      WEB_URL: webUrl,
    });
    started.push(() => web.stop());
    const songs = options.songs ?? 0;
    if (songs > 0)
      await seedDemoCatalogue(t.deps, { perArtist: Math.ceil(songs / 4), seconds: options.songSeconds ?? 30 });
    const browser = await browserStarting;
    return stackOf({ t, edgeUrl, party, webUrl, browser, web, edgeLog, stopAll: undo });
  } catch (error) {
    await undo();
    throw error;
  }
}

function stackOf({
  t,
  edgeUrl,
  party,
  webUrl,
  browser,
  web,
  edgeLog,
  stopAll,
}: {
  t: TestApp;
  edgeUrl: string;
  party: { url: string };
  webUrl: string;
  browser: Browser;
  web: Awaited<ReturnType<typeof startWeb>>;
  edgeLog: string[];
  stopAll: () => Promise<void>;
}) {
  const people: Person[] = [];

  return {
    t,
    edgeUrl,
    partyUrl: party.url,
    webUrl,
    browser,
    web,
    /** What the edge printed: each email and SMS, as on an instance without a provider. */
    edgeLog,
    /** A new person: their own browser context (cookies), on a page that records errors. */
    async person(): Promise<Person> {
      const context = await browser.newContext({ baseURL: webUrl, viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        // A form the edge refused answers 4xx on purpose; the browser logs those, they are not errors of the page.
        // Remix's single fetch logs the AbortError of a revalidation the router cancelled because a newer submission
        // superseded it (@remix-run/react single-fetch.js, `console.error(e)` before rethrowing): nothing a person sees.
        const text = m.text();
        if (
          m.type() === "error" &&
          !/Failed to load resource: .* status of 4\d\d/.test(text) &&
          !text.startsWith("AbortError: signal is aborted without reason")
        )
          errors.push(`console: ${text}`);
      });
      const person = { context, page, errors };
      people.push(person);
      return person;
    },
    /** The newest email or SMS sent to an address, from the edge's outbox. */
    async lastMessage(to: string) {
      const message = await until(() => t.lastMessage(to), `a message to ${to}`, 10_000);
      return message!;
    },
    async stop() {
      for (const p of people) await p.context.close().catch(() => undefined);
      await stopAll();
    },
  };
}
export type Stack = ReturnType<typeof stackOf>;

let counter = 0;
/** A fresh address for a test person. */
export const emailFor = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@booth.test`;

/** Signs up through the form; lands on the verification screen. */
export async function signUp(page: Page, person: { nickname: string; email: string; password?: string }) {
  await page.goto("/signup");
  await page.fill("#nickname", person.nickname);
  await page.fill("#email", person.email);
  await page.fill("#password", person.password ?? "correct horse battery");
  await Promise.all([page.waitForURL(/\/verify-email/), page.click("button[type=submit]")]);
}

/** Reads the code the edge emailed and enters it on the verification screen. */
export async function verifyEmail(stack: Stack, page: Page, email: string) {
  const message = await stack.lastMessage(email);
  const code = /\b(\d{6})\b/.exec(message.body)?.[1];
  if (!code) throw new Error(`no code in the email to ${email}: ${message.body}`);
  if (!page.url().includes("/verify-email")) await page.goto("/verify-email");
  await page.fill("#code", code);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/verify-email")),
    page.click("form:has(#code) button[type=submit]"),
  ]);
}

/** A screenshot in test/screenshots/<name>.png (committed: they show what the screens look like). */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top of the page, as a person arriving sees it (or the whole page).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
}

/**
 * The edge's answer to the next change the page posts (a form or fetcher action, `*.data`): a test that saw a change
 * shown at once waits for it before leaving the page or having someone else look, as leaving may cancel it.
 */
export const changeAnswered = (page: Page, url: RegExp = /\.data/) =>
  page.waitForResponse((r) => r.request().method() === "POST" && url.test(r.url()));

/** Retries `check` until it stops throwing (the last failure is thrown after the timeout). */
export async function eventually(check: () => unknown | Promise<unknown>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Waits until the first element matching `selector` shows `expected` (the whole text, or a pattern). */
export async function expectText(page: Page, selector: string, expected: string | RegExp, timeoutMs = 10_000) {
  let seen: string | null = null;
  try {
    await eventually(async () => {
      seen = ((await page.locator(selector).first().textContent({ timeout: 1000 })) ?? "").trim();
      if (typeof expected === "string" ? seen !== expected : !expected.test(seen)) throw new Error("not yet");
    }, timeoutMs);
  } catch {
    throw new Error(`${selector}: expected ${JSON.stringify(String(expected))}, saw ${JSON.stringify(seen)}`);
  }
}

/** Waits until `selector` matches `count` elements. */
export async function expectCount(page: Page, selector: string, count: number, timeoutMs = 10_000) {
  let seen = -1;
  try {
    await eventually(async () => {
      seen = await page.locator(selector).count();
      if (seen !== count) throw new Error("not yet");
    }, timeoutMs);
  } catch {
    throw new Error(`${selector}: expected ${count} elements, saw ${seen}`);
  }
}
