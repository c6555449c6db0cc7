/**
 * The whole product for a browser test: the edge (a real HTTP server on a fresh database), `wrangler dev`, and the
 * built web app as its own process, with Debian's chromium driven by playwright-core.
 *
 *   const stack = suiteStack();                  // started before the suite's tests, stopped after them
 *   // (or: const stack = await startStack() in beforeAll, allowing ~3 minutes, and await stack.stop() in afterAll)
 *   const alice = await stack.person();          // a browser context of its own (own cookies)
 *   await signUp(alice.page, { nickname: "alice" });
 *   await verifyEmail(stack, alice.page, email);
 *   await shot(alice.page, "room");              // test/screenshots/room.png
 */
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestApp, demoCatalogueOnce, openedForTests, type TestApp } from "@booth/edge/testing";
import { serve } from "@hono/node-server";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, describe, onTestFailed, onTestFinished } from "vitest";
import { defaultConfig } from "../../edge/src/deps.ts";
import { generateKeys, type Keys } from "../../edge/src/lib/tokens.ts";
import { partyLiveRooms } from "../../edge/src/ports/live-rooms.ts";
import { printingOutbox } from "../../edge/src/ports/messaging.ts";
import { answers, startChildServer } from "../../edge/src/testing/child-server.ts";
import { freePort, startParty, until } from "../../rooms-party/test/helpers.ts";
import { buildServer, SERVER } from "../scripts/build.mjs";
import { buildIfStale } from "../server.ts";

export { until };
export const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(webRoot, "test", "screenshots");

/**
 * Builds the web app once for every test file of the run (files run in parallel workers: a lock directory), and the
 * web server (dist/server.js, esbuild: tens of milliseconds) that `startWeb` runs, as production does.
 */
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
    await buildServer();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The built web app as its own process (production mode: the server built by `buildOnce`, as `npm run start:prod`
 * runs it; through tsx, a start took 2.5 CPU-seconds against 1), on `port`.
 */
export async function startWeb(port: number, env: Record<string, string>) {
  const url = `http://127.0.0.1:${port}`;
  const run = await startChildServer({
    name: "the web server",
    args: ["--enable-source-maps", SERVER],
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
  /**
   * Demo tracks to load (synthesised and transcoded like uploads), 0 for none. Made once per run for each number and
   * length of songs, and copied into the stacks that ask for the same again (`demoCatalogueOnce`): a suite that needs
   * a song or two asks for a size others ask for (4 of 30 or 60 s), which costs it no ffmpeg.
   */
  songs?: number;
  /** How long each of them plays (30 s unless set). */
  songSeconds?: number;
  /** How long a disconnected user keeps their seat. */
  graceMs?: number;
  /** The rooms' BOOTH_TIME_SCALE: songs and the idle-DJ clock run this much faster (tests and demos). */
  timeScale?: number;
  /** More settings for the web server (the providers' player scripts, say). */
  webEnv?: Record<string, string>;
}

/**
 * The processes a stack runs besides its edge: `wrangler dev`, the web server and chromium, and the HTTP server the
 * edge answers on. The edge behind that server can be replaced: a test file whose suites share these processes
 * (`shareStacks`) gives each suite a fresh edge on a fresh database, and pays for the processes once.
 */
interface Processes {
  key: string;
  edgeUrl: string;
  webUrl: string;
  party: Awaited<ReturnType<typeof startParty>>;
  web: Awaited<ReturnType<typeof startWeb>>;
  browser: Browser;
  serviceSecret: string;
  keys: Keys;
  /** The edge answering now (null between two suites: 503). */
  edge: ((request: Request, env: unknown) => Response | Promise<Response>) | null;
  busy: boolean;
  stop: () => Promise<void>;
}

/** What decides whether two stacks can share processes: what the party and the web server were started with. */
const processKey = (options: StartOptions) =>
  JSON.stringify([options.graceMs ?? 20_000, options.timeScale ?? null, options.webEnv ?? {}]);

async function startProcesses(options: StartOptions): Promise<Processes> {
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
    // The secret and signing keys every edge of these processes uses: the party was started with the secret, and
    // it verifies live tokens with the keys it fetched once.
    const serviceSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    const { keys } = await generateKeys();
    const processes = { edge: null } as Processes;
    const edgeServer = serve({
      fetch: (request, env) =>
        processes.edge ? processes.edge(request, env) : new Response("no edge between two suites", { status: 503 }),
      port: 0,
      hostname: "127.0.0.1",
    });
    started.push(() => edgeServer.close());
    await new Promise((r) => edgeServer.once("listening", r));
    const edgeUrl = `http://127.0.0.1:${(edgeServer.address() as { port: number }).port}`;
    const persistDir = await mkdtemp(join(tmpdir(), "booth-web-party-"));
    started.push(() => rm(persistDir, { recursive: true, force: true }));
    const party = await startParty({
      port: partyPort,
      persistDir,
      vars: {
        BOOTH_EDGE_URL: edgeUrl,
        BOOTH_PRESENCE_GRACE_MS: String(options.graceMs ?? 20_000),
        ...(options.timeScale ? { BOOTH_TIME_SCALE: String(options.timeScale) } : {}),
      },
      secrets: { BOOTH_SERVICE_SECRET: serviceSecret },
    });
    started.push(() => party.stop());
    await build;
    const web = await startWeb(webPort, {
      BOOTH_EDGE_URL: edgeUrl,
      BOOTH_PARTY_URL: party.url,
      SESSION_SECRET: "test-session-secret",
      WEB_URL: webUrl,
      ...options.webEnv,
    });
    started.push(() => web.stop());
    const browser = await browserStarting;
    return Object.assign(processes, {
      key: processKey(options),
      edgeUrl,
      webUrl,
      party,
      web,
      browser,
      serviceSecret,
      keys,
      busy: true,
      stop: undo,
    });
  } catch (error) {
    await undo();
    throw error;
  }
}

/** With `shareStacks()`: processes no suite uses now, kept for the next one started with the same settings. */
let shared: Processes[] | null = null;
/** With `shareStacks({ webEnv })`: web settings every stack of the file starts with (a suite's own come on top). */
let sharedWebEnv: Record<string, string> = {};

/**
 * For a test file that runs several suites, one after another (`describe("...", () => import("./x.suite.ts"))`):
 * their stacks share the edge's server, the party, the web server and chromium, each suite on a fresh edge and
 * database, so the processes start once per file rather than once per suite. Call it at the top of the file;
 * `webEnv` (a stand-in's script URL, say) goes to the web server of every stack the file starts, so the suites that
 * need it and those that do not still share one.
 */
export function shareStacks(defaults: { webEnv?: Record<string, string> } = {}) {
  shared = [];
  sharedWebEnv = defaults.webEnv ?? {};
  afterAll(async () => {
    const all = shared ?? [];
    shared = null;
    sharedWebEnv = {};
    for (const processes of all) await processes.stop();
  }, 60_000);
}

/**
 * A group file's body: the suites `./<name>.suite.ts` one after another, each in a `describe` of its name, their
 * stacks sharing one set of processes (`shareStacks`, with its `defaults`).
 */
export function sharedSuites(names: string[], defaults: { webEnv?: Record<string, string> } = {}) {
  shareStacks(defaults);
  for (const name of names)
    describe(name, async () => {
      await import(`./${name}.suite.ts`);
    });
}

export async function startStack(asked: StartOptions = {}) {
  const options = { ...asked, webEnv: { ...sharedWebEnv, ...asked.webEnv } };
  const reused = shared?.find((p) => !p.busy && p.key === processKey(options));
  const processes = reused ?? (await startProcesses(options));
  processes.busy = true;
  if (shared && !reused) shared.push(processes);
  try {
    return await stackOn(processes, options);
  } catch (error) {
    if (!shared) await processes.stop();
    else processes.busy = false;
    throw error;
  }
}

/**
 * The stack of a suite (its file, or the `describe` it is called in): started before the suite's tests, stopped after
 * them. What it answers stands for that stack once started, in hooks and tests, so a suite writes
 * `const stack = suiteStack({ songs: 4 })` at its top and then `stack.t`, `stack.person()` as with any stack; its own
 * `beforeAll` (people, fixtures) runs after the start.
 */
export function suiteStack(options: StartOptions = {}): Stack {
  return openedForTests(
    "the suite's stack",
    () => startStack(options),
    (stack) => stack.stop(),
    { open: 300_000, close: 60_000 },
  );
}

/**
 * A stand-in for the edge, for the tests of the built web server alone: an HTTP server on loopback that `answer`s
 * every request, listening for the file's tests (`openedForTests`); its `url` is the web's BOOTH_EDGE_URL.
 */
export function edgeStandIn(answer: RequestListener): { url: string } {
  return openedForTests(
    "the edge's stand-in",
    async () => {
      const server = createServer(answer);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    },
    async ({ server }) => server.close(),
  );
}

/** A fresh edge (its own database and cache) on `processes`, with the demo songs the options ask for. */
async function stackOn(processes: Processes, options: StartOptions) {
  const { edgeUrl, webUrl, party } = processes;
  const t: TestApp = await createTestApp({
    keys: processes.keys,
    serviceSecret: processes.serviceSecret,
    liveRooms: partyLiveRooms({ baseUrl: party.url, serviceToken: () => t.serviceToken() }),
    config: {
      ...defaultConfig,
      webUrl,
      // The edge's public URL is the address of the server the tests run it behind (upload URLs, its links).
      publicUrl: edgeUrl,
      providers: {
        ...defaultConfig.providers,
        spotifyApiUrl: "http://127.0.0.1:9",
        appleMusicApiUrl: "http://127.0.0.1:9",
        audiusApiUrl: "http://127.0.0.1:9",
      },
    },
  });
  // As on the embedded default (no email or SMS provider), each message is also printed in the edge's log: here.
  const edgeLog: string[] = [];
  t.deps.mailer = printingOutbox(t.deps.mailer, (text) => edgeLog.push(text));
  t.deps.sms = printingOutbox(t.deps.sms, (text) => edgeLog.push(text));
  // Tokens are checked by other processes (the party) against the real time.
  t.clock.now = () => new Date();
  processes.edge = (request, env) => t.app.fetch(request, env);
  try {
    const songs = options.songs ?? 0;
    if (songs > 0) await demoCatalogueOnce(t, { tracks: songs, seconds: options.songSeconds ?? 30 });
  } catch (error) {
    processes.edge = null;
    await t.close();
    throw error;
  }
  return stackOf({
    t,
    edgeUrl,
    party,
    webUrl,
    browser: processes.browser,
    web: processes.web,
    edgeLog,
    stopAll: async () => {
      processes.edge = null;
      await t.close().catch(() => undefined);
      if (shared?.includes(processes)) processes.busy = false;
      else await processes.stop();
    },
  });
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
  party: { url: string; output: () => string };
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
    /**
     * A new person: their own browser context (cookies; `locale` sets the browser's Accept-Language), on a page that
     * records errors. They ask for reduced motion unless `motion` is set: chromium here draws without a GPU, and the
     * room's endless animations (the lights, the playing DJ's pulse, under the header's blur) cost a core for four
     * open room pages, 7x what the same pages cost still (measured); the test run is bound by its two cores. What
     * the motion looks like is the screenshots' and the reduced-motion test's business, not every test's.
     */
    async person(options: { locale?: string; motion?: boolean } = {}): Promise<Person> {
      const context = await browser.newContext({
        baseURL: webUrl,
        viewport: { width: 1280, height: 860 },
        locale: options.locale,
        reducedMotion: options.motion ? "no-preference" : "reduce",
      });
      // A loaded CI machine (three test files with their browsers at once on two cores) has taken over 30 s, the
      // default, for a new context's first page.
      context.setDefaultNavigationTimeout(90_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => {
        // The same cancelled revalidation (below), when the rethrown AbortError reaches no handler: nothing shows.
        if (!e.message.includes(CANCELLED)) errors.push(`pageerror: ${e.message}`);
      });
      page.on("console", (m) => {
        // A form the edge refused answers 4xx on purpose; the browser logs those, they are not errors of the page.
        // Remix's single fetch logs the AbortError of a revalidation the router cancelled because a newer submission
        // superseded it (@remix-run/react single-fetch.js, `console.error(e)` before rethrowing): nothing a person sees.
        const text = m.text();
        if (
          m.type() === "error" &&
          !/Failed to load resource: .* status of 4\d\d/.test(text) &&
          !text.startsWith(`AbortError: ${CANCELLED}`)
        )
          errors.push(`console: ${text}`);
      });
      const person = { context, page, errors };
      people.push(person);
      // A person a test makes leaves with that test: an open page goes on playing the room's song, polling and
      // taking the room's patches for nobody, and chromium was the run's largest share of CPU. Those a suite makes
      // in beforeAll (outside any test) stay until the stack stops.
      try {
        onTestFinished(() => context.close().catch(() => undefined));
        // What the rooms logged (their edge requests, an effect that failed) is the other half of a live page's story:
        // a failed test prints its end, once, where a CI log keeps it.
        onTestFailed(({ task }) => {
          if (roomsLogPrinted.has(task.id)) return;
          roomsLogPrinted.add(task.id);
          const lines = party.output().trimEnd().split("\n").slice(-ROOMS_LOG_LINES);
          console.error(`[the rooms' last ${lines.length} log lines]\n${lines.join("\n")}`);
        });
      } catch {
        // Not inside a test.
      }
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

/** How much of the rooms' log a failed browser test prints, and the tests that printed it. */
const ROOMS_LOG_LINES = 60;
const roomsLogPrinted = new Set<string>();

/** The message of the AbortError a revalidation the router cancelled ends with (see `person`). */
const CANCELLED = "signal is aborted without reason";

let counter = 0;
/** A fresh address for a test person. */
export const emailFor = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@booth.test`;

/** The password test people sign up with (and sign in with again). */
export const TEST_PASSWORD = "correct horse battery";

/** The six-digit code in the newest email the edge sent to `email` (a verification). */
export async function emailedCode(stack: Stack, email: string) {
  const message = await stack.lastMessage(email);
  const code = /\b(\d{6})\b/.exec(message.body)?.[1];
  if (!code) throw new Error(`no code in the email to ${email}: ${message.body}`);
  return code;
}

/** Signs up through the form; lands on the verification screen. */
export async function signUp(page: Page, person: { nickname: string; email: string; password?: string }) {
  // Once the document is there (the form works before the scripts do): on a loaded CI run a page's "load", which
  // waits for every picture and script, once outlasted 90 s.
  await page.goto("/signup", { waitUntil: "domcontentloaded" });
  await page.fill("#nickname", person.nickname);
  await page.fill("#email", person.email);
  await page.fill("#password", person.password ?? TEST_PASSWORD);
  await Promise.all([page.waitForURL(/\/verify-email/), page.click("button[type=submit]")]);
}

/** Reads the code the edge emailed and enters it on the verification screen. */
export async function verifyEmail(stack: Stack, page: Page, email: string) {
  const code = await emailedCode(stack, email);
  if (!page.url().includes("/verify-email")) await page.goto("/verify-email");
  await page.fill("#code", code);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/verify-email")),
    page.click("form:has(#code) button[type=submit]"),
  ]);
}

/** Signs up and verifies the address on the screens, as a person does: `signUp`, then `verifyEmail`. */
export async function signUpVerified(stack: Stack, page: Page, person: { nickname: string; email: string }) {
  await signUp(page, person);
  await verifyEmail(stack, page, person.email);
}

/** Creates a room on /rooms/new with its name alone, and waits on its page (at /rooms/`slug`) until it is in it. */
export async function newRoom(page: Page, name: string, slug: string) {
  await page.goto("/rooms/new");
  await page.fill("#name", name);
  await Promise.all([page.waitForURL(new RegExp(`/rooms/${slug}`)), page.click("main button[type=submit]")]);
  await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
}

/** A screenshot in test/screenshots/<name>.png (committed: they show what the screens look like). */
/** The phone width every screen must work at (issue 22): screenshots at it, and no sideways scrolling. */
export const PHONE = { width: 390, height: 844 };

/**
 * A screenshot of what a person sees (`test/screenshots/<name>.png`), and the same screen at a phone's width
 * (`<name>-phone.png`). Every screen a test shows is also checked: axe-core finds no serious or critical
 * accessibility violation (WCAG 2.1 A and AA), and at 390 px nothing is wider than the screen. A failure names the
 * rule, the elements and what to fix.
 */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await checkAccessible(page, name);
  // From the top of the page, as a person arriving sees it (or the whole page).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
  const desktop = page.viewportSize();
  // A test that already looks at a phone's width took that screenshot above.
  if (desktop && desktop.width <= PHONE.width) return;
  await page.setViewportSize(PHONE);
  try {
    await page.evaluate(() => window.scrollTo(0, 0));
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth <= width) return null;
      const wide = [...document.body.querySelectorAll<HTMLElement>("*")]
        .filter((e) => e.getBoundingClientRect().right > width + 1 && getComputedStyle(e).position !== "fixed")
        .filter((e) => {
          // What a row that scrolls sideways of its own holds (the sections of the header) is not the page's width.
          for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
            if (/auto|scroll|hidden|clip/.test(getComputedStyle(up).overflowX)) return false;
          }
          return true;
        })
        .slice(0, 5)
        .map(
          (e) =>
            `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} (${Math.round(e.getBoundingClientRect().right)} px)`,
        );
      return wide.length ? wide : null;
    });
    if (overflow) {
      const message = `"${name}" is wider than a 390 px phone: ${overflow.join(", ")}`;
      if (!process.env.AXE_REPORT) throw new Error(message);
      const { appendFileSync } = await import("node:fs");
      appendFileSync(process.env.AXE_REPORT, `${message}\n`);
    }
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-phone.png`), fullPage: options.fullPage ?? false });
  } finally {
    if (desktop) await page.setViewportSize(desktop);
  }
}

/**
 * Waits until the page has hydrated: its language's texts loaded and Remix's router made (entry.client.tsx hydrates
 * once both are at hand). A test that takes the network away waits for this first, or the page's own chunks may fail.
 */
export async function hydrated(page: Page, timeoutMs = 30_000) {
  await page.waitForFunction(() => "__remixRouter" in window, undefined, { timeout: timeoutMs });
}

/** axe-core over the page as it is: serious and critical violations of WCAG 2.1 A/AA fail the test. */
export async function checkAccessible(page: Page, name: string) {
  const { default: AxeBuilder } = await import("@axe-core/playwright");
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (serious.length === 0) return;
  const lines = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}; ${v.nodes
        .slice(0, 4)
        .map((n) => n.target.join(" "))
        .join(" | ")}`,
  );
  if (process.env.AXE_REPORT) {
    const { appendFileSync } = await import("node:fs");
    appendFileSync(process.env.AXE_REPORT, `${name}\n  ${lines.join("\n  ")}\n`);
    return;
  }
  throw new Error(`"${name}" has accessibility violations:\n  ${lines.join("\n  ")}`);
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
