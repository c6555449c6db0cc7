/**
 * The web server's log (#34): pino's JSON lines at LOG_LEVEL, an access line a request, and nothing in them that opens
 * an account: a magic link's or a reset's token, an OAuth callback's code and state, a bearer token or a cookie, in
 * the query, the headers or the body. The edge here is a stand-in that knows nothing (404 to all).
 */
import { BOOTH_VERSION } from "@booth/sdk/version";
import { beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { buildOnce, edgeStandIn, startWeb, until } from "./harness.ts";

const edge = edgeStandIn((_req, res) => {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ statusCode: 404, message: "Not Found", error: "Not Found", code: "NOT_FOUND" }));
});
beforeAll(() => buildOnce(), 240_000);

const jsonLines = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const secret = (name: string) => `${name}-${crypto.randomUUID()}`;

it("writes an access line a request with its codes, tokens and cookies censored", async () => {
  const SECRETS = {
    magicToken: secret("magic"),
    oauthCode: secret("code"),
    oauthState: secret("state"),
    resetToken: secret("reset"),
    bodyToken: secret("body-token"),
    password: secret("password"),
    bearer: secret("bearer"),
    cookie: secret("cookie"),
  };
  const web = await startWeb(await freePort(), { BOOTH_EDGE_URL: edge.url, LOG_LEVEL: "info" });
  try {
    const headers = { authorization: `Bearer ${SECRETS.bearer}`, cookie: `booth_session=${SECRETS.cookie}` };
    await (await fetch(`${web.url}/magic-link?token=${SECRETS.magicToken}`, { headers })).text();
    await (
      await fetch(`${web.url}/connections/spotify/callback?code=${SECRETS.oauthCode}&state=${SECRETS.oauthState}`, {
        headers,
        redirect: "manual",
      })
    ).text();
    await (
      await fetch(`${web.url}/reset-password?token=${SECRETS.resetToken}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: SECRETS.bodyToken, password: SECRETS.password }),
        redirect: "manual",
      })
    ).text();
    const line = (path: string) => jsonLines(web.output()).find((l) => String(l.path).startsWith(path));
    await until(() => line("/reset-password"), "the access lines", 10_000);
    expect(line("/magic-link")).toMatchObject({ level: "info", method: "GET", path: "/magic-link?token=[Redacted]" });
    expect(line("/connections/spotify/callback")?.path).toBe(
      "/connections/spotify/callback?code=[Redacted]&state=[Redacted]",
    );
    expect(line("/reset-password")).toMatchObject({ method: "POST", path: "/reset-password?token=[Redacted]" });
    expect(typeof line("/magic-link")?.requestId).toBe("string");
    const output = web.output();
    for (const [name, value] of Object.entries(SECRETS))
      expect(output.includes(value), `${name} in the log:\n${output}`).toBe(false);
    expect(output).toContain(`web: Booth is at ${web.url} (Booth ${BOOTH_VERSION}`);
  } finally {
    await web.stop();
  }
}, 90_000);

it("at LOG_LEVEL=warn writes no info line; an unknown LOG_LEVEL stops the start with one line", async () => {
  const web = await startWeb(await freePort(), { BOOTH_EDGE_URL: edge.url, LOG_LEVEL: "warn" });
  try {
    await (await fetch(`${web.url}/magic-link`)).text();
  } finally {
    // Stopped, the server writes what its log still holds before it exits: an info line would be in the output now.
    await web.stop();
  }
  expect(web.output()).toContain("web: stopped");
  expect(jsonLines(web.output()).filter((l) => l.level === "info")).toEqual([]);

  const refusal = await startWeb(await freePort(), { BOOTH_EDGE_URL: edge.url, LOG_LEVEL: "chatty" }).then(
    () => "started",
    (err: Error) => err.message,
  );
  expect(refusal).toMatch(/exited:\nweb: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
}, 90_000);
