import { createDb, type Database, schema } from "@booth/db";
import { createTestDatabase } from "@booth/db/testing";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../testing/child-server.ts";
import { expectErrorLog } from "../testing/error-logs.ts";
import { testLogger } from "../testing/logger.ts";
import { CONFLICTING_CHANGE, DATABASE_UNAVAILABLE, errorResponse, VALUE_REFUSED } from "./errors.ts";

/*
 * The last line of defence (#19): a database error that validation let through answers 4xx or 503 with a clear
 * message and never the SQL. The errors are the real engine's (PostgreSQL or PGlite), thrown by real statements.
 */
let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

/** The edge's answer to a handler that ran `statement`, as the edge's error handler (app.ts) gives it. */
async function answerTo(statement: () => Promise<unknown>) {
  const app = new Hono();
  app.get("/", async (c) => c.json(await statement()));
  app.onError((err, c) => errorResponse(c, err, testLogger));
  const res = await app.request("/");
  return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text() };
}

describe("a database error that gets through", () => {
  it("answers 400 for a value the database refused, 409 for a constraint, naming no SQL", async () => {
    expectErrorLog("database refused a value");
    const refused = [
      () => db.db.execute(sql`select '0000-01-01T00:00:00Z'::timestamptz`),
      () => db.db.execute(sql`select ${"not-a-uuid"}::uuid`),
      () => db.db.execute(sql`select ${"3000000000"}::integer`),
    ];
    for (const statement of refused) {
      const answer = await answerTo(statement);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({
        statusCode: 400,
        message: VALUE_REFUSED,
        error: "Bad Request",
        code: "VALUE_REFUSED",
      });
    }
    const [user] = await db.db.insert(schema.users).values({ email: "twice@booth.test" }).returning();
    const conflict = await answerTo(() =>
      db.db.insert(schema.users).values({ uuid: user?.uuid, email: "again@booth.test" }),
    );
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.text).message).toBe(CONFLICTING_CHANGE);
    for (const leak of ["select", "insert", "users", "uuid", "duplicate key"])
      expect(conflict.text).not.toContain(leak);
  });

  it("answers 503 with Retry-After when the database cannot be reached", async () => {
    // A database address nothing listens on: the driver's own connection error.
    const port = await freePort();
    const gone = await createDb({ url: `postgres://postgres@127.0.0.1:${port}/none`, max: 1 });
    try {
      const answer = await answerTo(() => gone.db.execute(sql`select 1`));
      expect(answer).toMatchObject({ status: 503, retryAfter: "5" });
      expect(JSON.parse(answer.text).message).toBe(DATABASE_UNAVAILABLE);
      expect(answer.text).not.toContain(String(port));
    } finally {
      await gone.close().catch(() => undefined);
    }
  });
});
