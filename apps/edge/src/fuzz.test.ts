import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isErrorCode } from "./lib/error-codes.ts";
import { openApiDocument, SERVICES } from "./services/index.ts";
import { casesFor, type Document, type FuzzCase, type Operation, type Pool, seeded } from "./testing/fuzz.ts";
import { createTestApp, type TestApp } from "./testing.ts";

/*
 * The edge's own fuzz test (#19): every operation of every OpenAPI document is called as nobody, a user and an admin,
 * first with a plausible request and then with that request made wrong in one way each time (a field missing, of the
 * wrong type, out of range, oversized or malformed; a body that is not JSON, nested too deep, of the wrong shape).
 * Whatever comes in, the edge answers below 500 (502 and 503 name a provider that failed or is not configured), a
 * refusal carries a message, and no answer shows SQL. Seeded: FUZZ_SEED reproduces a run, FUZZ_MUTATIONS widens it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/**
 * Wrong requests per operation and caller: most for the admin, whom authorization lets through to the handler; a few
 * for the others, whose refusals come early. FUZZ_SCALE multiplies them (the default run sends about 12,000 requests).
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BUDGET = { nobody: 3, user: 8, admin: 25, service: 6 };
const SQL_LEAK =
  /syntax error|violates|relation "|column "|duplicate key|PostgresError|DrizzleQueryError|Failed query/i;

let t: TestApp;
let room: { uuid: string; slug: string };
beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.createUser({ nickname: "fuzz-owner" });
  const created = await t.request("POST", "/api/room-service/rooms/infrastructure", {
    token: owner.token,
    body: { name: "Fuzz Room", type: "PUBLIC" },
  });
  room = { uuid: created.body.uuid, slug: created.body.slug };
});
afterAll(() => t?.close());

/** A number from a text, to seed each operation's requests on their own (a failure reproduces alone). */
const hash = (text: string) => [...text].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261);

/** A path segment as a client would send it; a lone surrogate (no UTF-8 has it) as the bytes of one, invalid UTF-8. */
const segment = (value: string) =>
  value
    .split(/([\uD800-\uDFFF])/)
    .map((part) => (/^[\uD800-\uDFFF]$/.test(part) ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("") || "%20";
const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => segment(values[name] ?? "x"));

describe("the edge under generated input", () => {
  for (const service of SERVICES) {
    const document = openApiDocument(service) as unknown as Document & {
      paths?: Record<string, Record<string, Operation>>;
    };
    for (const [path, methods] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(methods)) {
        const label = `${method.toUpperCase()} ${service.prefix}${path}`;
        it(label, async () => {
          const rng = seeded(SEED ^ hash(label));
          // Callers of their own, so one operation's effects (a logout, a deleted account) reach no other.
          const user = await t.createUser();
          const admin = await t.createUser({ roles: ["user", "admin", "superUser"] });
          const callers = { nobody: null, user: user.token, admin: admin.token, service: await t.serviceToken() };
          const pool: Pool = { uuids: [user.user.uuid, admin.user.uuid, room.uuid], slugs: [room.slug] };
          const failures: string[] = [];
          for (const [who, token] of Object.entries(callers)) {
            const mutations = Math.round(BUDGET[who as keyof typeof BUDGET] * SCALE);
            for (const c of casesFor(document, operation, rng, { pool, mutations })) {
              const problem = await send(method, `${service.prefix}${path}`, c, token, rng.int(1, 250));
              if (problem) failures.push(`${who}, ${c.what}: ${problem}`);
            }
          }
          expect(failures, `FUZZ_SEED=${SEED} reproduces these`).toEqual([]);
        });
      }
    }
  }
});

/** How many answers had each status, over the run. */
const statuses = new Map<number, number>();

/** Sends one case; what is wrong with the answer, if anything. */
async function send(method: string, path: string, c: FuzzCase, token: string | null, address: number) {
  const headers: Record<string, string> = { "x-forwarded-for": `10.77.${address}.${address % 7}` };
  const hasBody = method !== "get" && method !== "delete";
  if (hasBody && (c.raw !== undefined || c.body !== undefined)) headers["content-type"] = "application/json";
  const res = await t.request(method.toUpperCase(), fill(path, c.path), {
    token,
    query: c.query,
    headers,
    ...(hasBody ? { body: c.raw ?? (c.body === undefined ? undefined : JSON.stringify(c.body)) } : {}),
  });
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return problemWith(res.status, res.body);
}

/** What is wrong with an answer: a 500, SQL shown to the client, a refusal without a message or a registered code. */
export function problemWith(status: number, body: unknown): string | undefined {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  if (status >= 500 && status !== 502 && status !== 503) return `${status} ${text?.slice(0, 200)}`;
  if (SQL_LEAK.test(text ?? "")) return `${status} shows SQL: ${text?.slice(0, 200)}`;
  if (status >= 400 && (!body || typeof body !== "object" || !(body as { message?: unknown }).message))
    return `${status} without a message: ${text?.slice(0, 200)}`;
  if (status >= 400 && !isErrorCode((body as { code?: unknown }).code))
    return `${status} without a code of lib/error-codes.ts: ${text?.slice(0, 200)}`;
  return undefined;
}

describe("the fuzz test itself", () => {
  it("reached the handlers: plausible requests succeeded, wrong ones were refused", () => {
    const count = (from: number, to: number) =>
      [...statuses].filter(([s]) => s >= from && s < to).reduce((sum, [, n]) => sum + n, 0);
    expect(count(200, 300)).toBeGreaterThan(200);
    expect(count(400, 401)).toBeGreaterThan(2000);
    expect(count(200, 600)).toBeGreaterThan(5000);
  });

  it("catches a 500, SQL in an answer and a refusal without a message", () => {
    expect(problemWith(500, { message: "Internal Server Error" })).toMatch(/^500/);
    expect(
      problemWith(400, { message: 'invalid input syntax for type uuid: "x"', detail: "Failed query: select" }),
    ).toMatch(/shows SQL/);
    expect(problemWith(404, "")).toMatch(/without a message/);
    expect(problemWith(404, { statusCode: 404, message: "Room not found.", error: "Not Found" })).toMatch(
      /without a code/,
    );
    expect(problemWith(404, { message: "Room not found.", code: "NO_SUCH_CODE" })).toMatch(/without a code/);
    for (const [status, body] of [
      [400, { statusCode: 400, message: ["name: Required"], error: "Bad Request", code: "VALIDATION_FAILED" }],
      [
        503,
        { statusCode: 503, message: "SPOTIFY_CLIENT_ID is not set", error: "Service Unavailable", code: "UNAVAILABLE" },
      ],
      [200, { ok: true }],
    ] as const)
      expect(problemWith(status, body)).toBeUndefined();
  });

  it("makes each kind of wrong input from a schema", () => {
    const document: Document = {};
    const operation: Operation = {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
      requestBody: {
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["name", "position"],
              properties: {
                name: { type: "string", minLength: 1, maxLength: 100 },
                position: { type: "integer", minimum: 0, maximum: 2147483647 },
                startsAt: { type: "string", format: "date-time" },
              },
            },
          },
        },
      },
    };
    const pool: Pool = { uuids: [], slugs: [] };
    const cases = casesFor(document, operation, seeded(1), { pool, mutations: 10_000 });
    const kinds = cases.map((c) => c.what);
    for (const kind of [
      "a plausible request",
      "body name: missing",
      "body name: one past its longest",
      "body name: its longest",
      "body position: 2^31",
      "body position: a fraction",
      "body startsAt: year 0",
      "path id: not a uuid",
      "path id: a lone surrogate",
      "a body that is not JSON",
      "a body nested 2,000 deep",
    ])
      expect(kinds).toContain(kind);
    const plausible = cases[0]?.body as { name: string; position: number };
    expect(plausible.name.length).toBeGreaterThan(0);
    expect(plausible.position).toBeGreaterThanOrEqual(0);
    // Seeded: the same seed makes the same requests.
    expect(casesFor(document, operation, seeded(1), { pool, mutations: 5 })).toEqual(
      casesFor(document, operation, seeded(1), { pool, mutations: 5 }),
    );
  });
});
