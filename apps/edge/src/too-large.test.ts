/**
 * Every refusal is readable (issue #35): a request that declares a body larger than its route takes (Content-Length)
 * gets the route's 413, with its message, before the connection closes, and the connection is not reset while the
 * client still sends: the edge reads and drops what comes after its answer (a lingering close), then closes. The
 * clients are raw sockets: one reads the answer as it comes (curl, fetch in Node), one reads it only once it has
 * sent every byte it declared (a browser's upload). Served as the Node entry serves the edge (`serveTestApp`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./app.ts";
import { MAX_UPLOAD_BYTES } from "./services/upload/uploads.ts";
import { declareTooLarge } from "./testing/raw-upload.ts";
import { createTestApp, serveTestApp, type TestApp, until, uploaderOf, uploadTicket } from "./testing.ts";

let t: TestApp;
let server: Awaited<ReturnType<typeof serveTestApp>>;
let token: string;
let songPath: string;
beforeAll(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
  ({ token } = await uploaderOf(t));
  songPath = (await uploadTicket(t, token)).path;
});
afterAll(async () => {
  server.close();
  await t.close();
});

const JSON_LIMIT = "The request body is larger than 16 MB.";
const cases = [
  {
    route: "the song upload",
    method: "PUT",
    path: () => songPath,
    type: "audio/mpeg",
    declared: MAX_UPLOAD_BYTES + 1,
    message: "The request body is larger than 50 MB.",
  },
  {
    route: "a JSON route",
    method: "POST",
    path: () => "/api/user-service/users/profile",
    type: "application/json",
    declared: MAX_BODY_BYTES + 1,
    message: JSON_LIMIT,
  },
  {
    route: "the profile image upload",
    method: "POST",
    path: () => "/api/user-service/users/images",
    type: "multipart/form-data; boundary=booth",
    declared: MAX_BODY_BYTES + 1,
    message: JSON_LIMIT,
  },
  {
    route: "POST /metadata",
    method: "POST",
    path: () => "/api/upload-service/metadata",
    type: "audio/mpeg",
    declared: MAX_BODY_BYTES + 1,
    message: JSON_LIMIT,
  },
];

describe("a body declared larger than its route takes", { timeout: 120_000 }, () => {
  for (const c of cases)
    for (const reads of ["eager", "browser"] as const)
      it(`${c.route} (${c.declared} bytes): 413 with its message, never a reset, to a client that reads ${reads === "eager" ? "as it sends" : "once it has sent it all"}`, async () => {
        const seen = await declareTooLarge({
          port: server.port,
          method: c.method,
          path: c.path(),
          headers: { authorization: `Bearer ${token}`, "content-type": c.type },
          declared: c.declared,
          reads,
        });
        expect(seen.errors).toEqual([]);
        expect(seen.status).toBe(413);
        expect(JSON.parse(seen.body)).toMatchObject({ statusCode: 413, message: c.message });
        expect(seen.headers.connection).toBe("close");
        // The connection is gone on the server's side too (nothing left lingering), and the edge answers the next
        // request.
        await until(async () => (await server.connections()) === 0, "the refused connection to close", 30_000);
        const health = await fetch(`${server.url}/healthz`, { headers: { connection: "close" } });
        expect(health.status).toBe(200);
      });
});
