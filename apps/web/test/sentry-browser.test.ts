/**
 * The pages report their errors to Sentry through @sentry/react when the web server names a DSN for them
 * (SENTRY_BROWSER_DSN, #34): in Chromium, against a local stand-in for Sentry's ingest. The event carries Booth's
 * version and nothing personal; without a DSN no Sentry code runs in the page and its policy lets nothing go there.
 */
import { BOOTH_VERSION } from "@booth/sdk/version";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { sentryIngest } from "../../edge/src/testing/sentry.ts";
import { buildOnce, edgeStandIn, launchChromium, startWeb } from "./harness.ts";

const edge = edgeStandIn((_req, res) => {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ statusCode: 404, message: "Not Found", error: "Not Found", code: "NOT_FOUND" }));
});
let browser: Browser;
let ingest: Awaited<ReturnType<typeof sentryIngest>>;
beforeAll(async () => {
  [browser, ingest] = await Promise.all([launchChromium(), sentryIngest(), buildOnce()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  ingest?.close();
});

const sinkOrigin = () => new URL(ingest.dsn).origin;
const connectSrc = (policy: string | undefined) =>
  (policy ?? "").split(";").find((d) => d.trim().startsWith("connect-src")) ?? "";

/**
 * The home page, opened with secrets in its address and a cookie. (Its rooms do not load, the edge knowing nothing:
 * the page shows its error card, with the app's scripts and the root's data.)
 */
async function openPage(webUrl: string, secrets: Record<string, string>): Promise<{ page: Page; policy: string }> {
  const context = await browser.newContext();
  await context.addCookies([{ name: "tracking", value: secrets.cookie ?? "", url: webUrl }]);
  const page = await context.newPage();
  const res = await page.goto(`${webUrl}/?token=${secrets.token}&code=${secrets.code}`);
  return { page, policy: (await res?.headerValue("content-security-policy")) ?? "" };
}

/** An error the page's own code did not catch, thrown after the page is up. */
const throwInPage = (page: Page, message: string) =>
  page.evaluate((text) => {
    setTimeout(() => {
      throw new Error(text);
    }, 0);
  }, message);

it("sends an uncaught error of the page with Booth's version, and without the visitor's data", async () => {
  const secrets = { token: `t-${crypto.randomUUID()}`, code: `c-${crypto.randomUUID()}`, cookie: crypto.randomUUID() };
  const email = `someone-${crypto.randomUUID().slice(0, 8)}@booth.test`;
  const web = await startWeb(await freePort(), {
    BOOTH_EDGE_URL: edge.url,
    SENTRY_BROWSER_DSN: ingest.dsn,
    SENTRY_ENVIRONMENT: "browser-test",
  });
  try {
    const { page, policy } = await openPage(web.url, secrets);
    expect(connectSrc(policy)).toContain(sinkOrigin());
    await page.waitForFunction(() => document.documentElement.dataset.errorReports === "sentry");
    const message = `Broken on purpose for ${email} at /x?token=${secrets.token}`;
    await throwInPage(page, message);
    const event = await ingest.event((e) => e.exception.values.some((v) => v.value?.startsWith("Broken on purpose")));
    expect(event.release).toBe(BOOTH_VERSION);
    expect(event.environment).toBe("browser-test");
    expect(event.exception.values[0]?.value).toBe("Broken on purpose for [email] at /x?token=[Redacted]");
    expect(event.request?.url).toBe(`${web.url}/?token=[Redacted]&code=[Redacted]`);
    expect(event.user).toBeUndefined();
    const sent = ingest.envelopes().join("\n");
    for (const secret of [...Object.values(secrets), email]) expect(sent).not.toContain(secret);
    await page.context().close();
  } finally {
    await web.stop();
  }
}, 90_000);

it("without SENTRY_BROWSER_DSN, runs no Sentry code in the page and lets it send nothing", async () => {
  const before = ingest.envelopes().length;
  const web = await startWeb(await freePort(), { BOOTH_EDGE_URL: edge.url });
  try {
    const { page, policy } = await openPage(web.url, { token: "t", code: "c", cookie: "k" });
    expect(connectSrc(policy)).not.toContain(sinkOrigin());
    // Every script the page loads (the app's chunks) has loaded and run.
    await page.waitForLoadState("networkidle");
    await throwInPage(page, "Broken on purpose, with nobody told");
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => "__SENTRY__" in window)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.dataset.errorReports)).toBeUndefined();
    expect(await page.locator('meta[name="booth-sentry-dsn"]').count()).toBe(0);
    expect(ingest.envelopes().length).toBe(before);
    await page.context().close();
  } finally {
    await web.stop();
  }
}, 90_000);
