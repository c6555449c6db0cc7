/**
 * The web server's own upload route (`POST /upload-file`, which passes the browser's file on to the edge) refuses a
 * file declared larger than an upload may be with its readable 413 before the connection closes, never a reset, and
 * asks nothing of the edge (issue #35). The client is a raw socket with a signed-in session's cookie, reading as it
 * sends or only once it has sent it all (a browser's upload); the edge is a stand-in that counts what it is asked.
 */
import { MAX_UPLOAD_BYTES } from "@booth/sdk/limits";
import { createCookieSessionStorage } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { declareTooLarge } from "../../edge/src/testing/raw-upload.ts";
import { buildOnce, edgeStandIn, startWeb, until } from "./harness.ts";

const SESSION_SECRET = "the upload limit test's session secret";
const asked: string[] = [];
const edge = edgeStandIn((req, res) => {
  asked.push(`${req.method} ${req.url}`);
  req.resume();
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ statusCode: 404, message: "Not Found", error: "Not Found", code: "NOT_FOUND" }));
});

let web: Awaited<ReturnType<typeof startWeb>>;
let cookie: string;
beforeAll(async () => {
  await buildOnce();
  web = await startWeb(await freePort(), { BOOTH_EDGE_URL: edge.url, SESSION_SECRET });
  // A signed-in session, as the web signs it (app/lib/session.server.ts): a token that lasts a week more.
  const sessions = createCookieSessionStorage({ cookie: { name: "booth_session", secrets: [SESSION_SECRET] } });
  const session = await sessions.getSession();
  session.set("token", "a-user-token");
  session.set("expiresAt", new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString());
  session.set("viewer", { uuid: crypto.randomUUID(), email: null, nickname: "Ana", avatarId: "", color: "#8b5cf6" });
  cookie = (await sessions.commitSession(session)).split(";")[0] ?? "";
}, 300_000);
afterAll(() => web?.stop());

describe("a file declared larger than an upload may be, sent to the web server", { timeout: 120_000 }, () => {
  for (const reads of ["eager", "browser"] as const)
    it(`gets the 413 with its message and no reset, asking nothing of the edge, when the client reads ${reads === "eager" ? "as it sends" : "once it has sent it all"}`, async () => {
      const port = Number(new URL(web.url).port);
      const seen = await declareTooLarge({
        port,
        method: "POST",
        path: "/upload-file?name=concert.wav",
        headers: { cookie, "content-type": "audio/mpeg", accept: "application/json" },
        declared: MAX_UPLOAD_BYTES + 1,
        reads,
      });
      expect(seen.errors).toEqual([]);
      expect(seen.status).toBe(413);
      expect(JSON.parse(seen.body)).toEqual({ error: "The file is larger than 50 MB." });
      expect(asked).toEqual([]);
      // The web server answers the next request.
      await until(async () => (await fetch(`${web.url}/healthz`)).status === 200, "the web server's next answer");
    });
});
