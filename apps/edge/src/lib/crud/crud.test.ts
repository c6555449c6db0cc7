import { schema } from "@booth/db";
import { count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openTestApp } from "../../testing.ts";
import { HttpError } from "../errors.ts";
import {
  applyCrud,
  type CrudOptions,
  type CrudQueryParams,
  CrudQuerySchema,
  crudList,
  crudPageSchema,
  escapeLike,
  parseCrudQuery,
  parseSelection,
  pickFields,
} from "./index.ts";

const { users, profiles } = schema;

const OPTIONS: CrudOptions = {
  fields: {
    uuid: users.uuid,
    email: users.email,
    roles: users.roles,
    tokenVersion: users.tokenVersion,
    createdAt: users.createdAt,
    deactivatedAt: users.deactivatedAt,
    lastLoginAt: users.lastLoginAt,
    nickname: profiles.nickname,
    displayPronouns: profiles.displayPronouns,
    isBot: { column: sql`('bot' = any(${users.roles}))`, type: "boolean" },
  },
  primaryKey: "uuid",
  joins: { profile: ["nickname", "bio"] },
  defaultSort: [{ field: "createdAt", order: "ASC" }],
};

const t = openTestApp();
const T0 = new Date("2026-06-01T12:00:00Z");
const hours = (n: number) => new Date(T0.getTime() + n * 3600_000);

// name -> email; created an hour apart, in this order.
const PEOPLE = [
  { key: "alice", email: "alice@crud.test", nickname: "Alice", roles: ["user"], tokenVersion: 0 },
  { key: "bob", email: "bob@crud.test", nickname: "Bob_1", roles: ["user", "admin"], tokenVersion: 3 },
  { key: "carol", email: "carol@crud.test", nickname: "carol%", roles: ["user", "staff"], tokenVersion: 5 },
  { key: "dave", email: "dave@other.test", nickname: "Dave", roles: ["bot"], tokenVersion: 1 },
  { key: "erin", email: "erin@other.test", nickname: "erin", roles: ["user", "moderator"], tokenVersion: 2 },
  { key: "pct", email: "100%_off@sale.test", nickname: "Percent", roles: ["user"], tokenVersion: 0 },
] as const;
type Key = (typeof PEOPLE)[number]["key"];
const uuidOf: Record<string, string> = {};

beforeAll(async () => {
  for (const [i, p] of PEOPLE.entries()) {
    const { user } = await t.createUser({ email: p.email, nickname: p.nickname, roles: [...p.roles] });
    uuidOf[p.key] = user.uuid;
    await t.db
      .update(users)
      .set({
        createdAt: hours(i),
        tokenVersion: p.tokenVersion,
        deactivatedAt: p.key === "carol" ? hours(10) : null,
        lastLoginAt: p.key === "erin" ? hours(20) : null,
      })
      .where(eq(users.uuid, user.uuid));
    if (p.key === "bob")
      await t.db.update(profiles).set({ displayPronouns: true }).where(eq(profiles.userUuid, user.uuid));
  }
});

const keyOf = (email: string | null) => PEOPLE.find((p) => p.email === email)?.key;

/** Runs a parsed query against users ⟕ profiles; answers the matching people's keys in result order. */
async function run(params: CrudQueryParams, options = OPTIONS) {
  const query = parseCrudQuery(params, options);
  const rows = await applyCrud(
    t.db.select({ email: users.email }).from(users).leftJoin(profiles, eq(profiles.userUuid, users.uuid)).$dynamic(),
    query,
  );
  return rows.map((r) => keyOf(r.email));
}
const set = async (params: CrudQueryParams) => (await run(params)).sort();
const sorted = (...keys: Key[]) => [...keys].sort();

/** The 400 a bad query throws, as the app would answer it. */
function rejection(params: CrudQueryParams, options = OPTIONS) {
  try {
    parseCrudQuery(params, options);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).message;
  }
  throw new Error("expected a 400");
}

describe("filter operators", () => {
  it("compares for equality and order", async () => {
    expect(await set({ filter: "email||$eq||bob@crud.test" })).toEqual(["bob"]);
    expect(await set({ filter: "email||$ne||bob@crud.test" })).toEqual(sorted("alice", "carol", "dave", "erin", "pct"));
    expect(await set({ filter: "tokenVersion||$gt||2" })).toEqual(sorted("bob", "carol"));
    expect(await set({ filter: "tokenVersion||$gte||2" })).toEqual(sorted("bob", "carol", "erin"));
    expect(await set({ filter: "tokenVersion||$lt||1" })).toEqual(sorted("alice", "pct"));
    expect(await set({ filter: "tokenVersion||$lte||1" })).toEqual(sorted("alice", "dave", "pct"));
    expect(await set({ filter: `createdAt||$gte||${hours(4).toISOString()}` })).toEqual(sorted("erin", "pct"));
    expect(await set({ filter: `createdAt||$lt||${hours(1).toISOString()}` })).toEqual(["alice"]);
    expect(await set({ filter: "tokenVersion||$between||1,3" })).toEqual(sorted("bob", "dave", "erin"));
    expect(await set({ filter: `createdAt||$between||${hours(1).toISOString()},${hours(2).toISOString()}` })).toEqual(
      sorted("bob", "carol"),
    );
  });

  it("matches text with LIKE, case-sensitive and not", async () => {
    expect(await set({ filter: "email||$starts||b" })).toEqual(["bob"]);
    expect(await set({ filter: "email||$ends||@other.test" })).toEqual(sorted("dave", "erin"));
    expect(await set({ filter: "email||$cont||crud" })).toEqual(sorted("alice", "bob", "carol"));
    expect(await set({ filter: "email||$excl||crud" })).toEqual(sorted("dave", "erin", "pct"));
    expect(await set({ filter: "nickname||$cont||ALI" })).toEqual([]);
    expect(await set({ filter: "nickname||$contL||ALI" })).toEqual(["alice"]);
    expect(await set({ filter: "nickname||$startsL||d" })).toEqual(["dave"]);
    expect(await set({ filter: "nickname||$endsL||VE" })).toEqual(["dave"]);
    expect(await set({ filter: "nickname||$exclL||E" })).toEqual(sorted("bob", "carol"));
    expect(await set({ filter: "nickname||$eq||alice" })).toEqual([]);
    expect(await set({ filter: "nickname||$eqL||aLiCe" })).toEqual(["alice"]);
    expect(await set({ filter: "nickname||$neL||ALICE" })).toEqual(sorted("bob", "carol", "dave", "erin", "pct"));
  });

  it("treats % and _ in values literally", async () => {
    expect(escapeLike("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
    expect(await set({ filter: "email||$cont||%" })).toEqual(["pct"]);
    expect(await set({ filter: "email||$cont||_" })).toEqual(["pct"]);
    expect(await set({ filter: "nickname||$cont||_" })).toEqual(["bob"]);
    expect(await set({ filter: "nickname||$endsL||%" })).toEqual(["carol"]);
    expect(await set({ filter: "email||$starts||100%_" })).toEqual(["pct"]);
  });

  it("matches lists, with and without case", async () => {
    expect(await set({ filter: "email||$in||alice@crud.test,erin@other.test" })).toEqual(sorted("alice", "erin"));
    expect(await set({ filter: "tokenVersion||$notin||0,1,2" })).toEqual(sorted("bob", "carol"));
    expect(await set({ filter: "nickname||$in||alice,DAVE" })).toEqual([]);
    expect(await set({ filter: "nickname||$inL||alice,DAVE" })).toEqual(sorted("alice", "dave"));
    expect(await set({ filter: "nickname||$notinL||ALICE,bob_1,CAROL%,dave" })).toEqual(sorted("erin", "pct"));
    expect(await set({ filter: `uuid||$in||${uuidOf.bob},${uuidOf.dave}` })).toEqual(sorted("bob", "dave"));
  });

  it("tests for null", async () => {
    expect(await set({ filter: "deactivatedAt||$notnull" })).toEqual(["carol"]);
    expect(await set({ filter: "deactivatedAt||$isnull" })).toEqual(sorted("alice", "bob", "dave", "erin", "pct"));
    expect(await set({ filter: "lastLoginAt||$notnull||ignored" })).toEqual(["erin"]);
  });

  it("reads arrays: has, lacks, has any, has none", async () => {
    expect(await set({ filter: "roles||$cont||admin" })).toEqual(["bob"]);
    expect(await set({ filter: "roles||$excl||user" })).toEqual(["dave"]);
    expect(await set({ filter: "roles||$in||admin,staff" })).toEqual(sorted("bob", "carol"));
    expect(await set({ filter: "roles||$notin||admin,staff,bot" })).toEqual(sorted("alice", "erin", "pct"));
  });

  it("reads booleans, from columns and expressions", async () => {
    expect(await set({ filter: "isBot||$eq||true" })).toEqual(["dave"]);
    expect(await set({ filter: "isBot||$ne||true" })).toHaveLength(5);
    expect(await set({ filter: "displayPronouns||$eq||1" })).toEqual(["bob"]);
  });

  it("ANDs repeated filters and accepts the old operator spellings", async () => {
    expect(await set({ filter: ["email||$cont||crud", "tokenVersion||$gt||0"] })).toEqual(sorted("bob", "carol"));
    expect(await set({ filter: "email||eq||bob@crud.test" })).toEqual(["bob"]);
  });

  it("keeps || inside a value", async () => {
    expect(await set({ filter: "email||$cont||a||b" })).toEqual([]);
  });

  it("binds values as parameters: an injection attempt is just a value", async () => {
    expect(await set({ filter: "email||$eq||x' OR '1'='1" })).toEqual([]);
    expect(await set({ filter: "email||$cont||'; drop table users; --" })).toEqual([]);
    const [row] = await t.db.select({ n: count() }).from(users);
    expect(row?.n).toBe(PEOPLE.length);
  });
});

describe("or", () => {
  it("a lone or is a plain filter", async () => {
    expect(await set({ or: "email||$eq||bob@crud.test" })).toEqual(["bob"]);
  });

  it("several ors alone are OR-ed", async () => {
    expect(await set({ or: ["email||$eq||bob@crud.test", "nickname||$eq||Dave"] })).toEqual(sorted("bob", "dave"));
  });

  it("one filter and one or are OR-ed", async () => {
    expect(await set({ filter: "email||$eq||bob@crud.test", or: "nickname||$eq||Dave" })).toEqual(
      sorted("bob", "dave"),
    );
  });

  it("with several of both: (filters AND-ed) OR (ors AND-ed)", async () => {
    const result = await set({
      filter: ["email||$cont||crud", "tokenVersion||$gt||3"],
      or: ["email||$cont||other", "tokenVersion||$lt||2"],
    });
    expect(result).toEqual(sorted("carol", "dave"));
  });
});

describe("s (JSON search)", () => {
  const s = (cond: unknown) => set({ s: JSON.stringify(cond) });

  it("matches plain values and operators", async () => {
    expect(await s({ email: "bob@crud.test" })).toEqual(["bob"]);
    expect(await s({ tokenVersion: { $gt: 2 } })).toEqual(sorted("bob", "carol"));
    expect(await s({ tokenVersion: { $gte: 1, $lte: 2 } })).toEqual(sorted("dave", "erin"));
    expect(await s({ email: { $cont: "crud" }, tokenVersion: 0 })).toEqual(["alice"]);
    expect(await s({ nickname: { $inL: ["ALICE", "erin"] } })).toEqual(sorted("alice", "erin"));
    expect(await s({ tokenVersion: { $between: [1, 3] } })).toEqual(sorted("bob", "dave", "erin"));
    expect(await s({ roles: { $cont: "staff" } })).toEqual(["carol"]);
    expect(await s({ isBot: true })).toEqual(["dave"]);
  });

  it("reads null as IS NULL and honours $isnull: false", async () => {
    expect(await s({ lastLoginAt: { $ne: null } })).toEqual(["erin"]);
    expect(await s({ deactivatedAt: { $isnull: false } })).toEqual(["carol"]);
    expect(await s({ deactivatedAt: null, email: { $cont: "crud" } })).toEqual(sorted("alice", "bob"));
  });

  it("combines with $and and $or, at the top and inside a field", async () => {
    expect(await s({ $or: [{ email: "alice@crud.test" }, { nickname: "Dave" }] })).toEqual(sorted("alice", "dave"));
    expect(await s({ $and: [{ email: { $cont: "crud" } }, { tokenVersion: { $gt: 0 } }] })).toEqual(
      sorted("bob", "carol"),
    );
    expect(await s({ email: { $cont: "crud" }, $or: [{ tokenVersion: 0 }, { roles: { $cont: "staff" } }] })).toEqual(
      sorted("alice", "carol"),
    );
    expect(await s({ tokenVersion: { $or: { $eq: 5, $lt: 1 } } })).toEqual(sorted("alice", "carol", "pct"));
    expect(await s({ $and: [{ $or: [{ nickname: "Dave" }, { nickname: "erin" }] }, { isBot: false }] })).toEqual([
      "erin",
    ]);
  });

  it("replaces filter and or when given", async () => {
    expect(await set({ s: JSON.stringify({ nickname: "Dave" }), filter: "email||$cont||crud" })).toEqual(["dave"]);
  });

  it("an empty condition matches everything", async () => {
    expect(await s({})).toHaveLength(PEOPLE.length);
  });
});

describe("sort and paging", () => {
  it("sorts by the default, then by the fields asked for, in order", async () => {
    expect(await run({})).toEqual(["alice", "bob", "carol", "dave", "erin", "pct"]);
    expect(await run({ sort: "createdAt,DESC" })).toEqual(["pct", "erin", "dave", "carol", "bob", "alice"]);
    expect(await run({ sort: ["tokenVersion,desc", "nickname,ASC"] })).toEqual([
      "carol",
      "bob",
      "erin",
      "dave",
      "alice",
      "pct",
    ]);
  });

  it("ends every sort with the primary key so pages are stable", () => {
    const q = parseCrudQuery({ sort: "tokenVersion,ASC" }, OPTIONS);
    expect(q.sort).toEqual([
      { field: "tokenVersion", order: "ASC" },
      { field: "uuid", order: "ASC" },
    ]);
  });

  it("pages with limit and offset, and page wins over offset", async () => {
    expect(await run({ limit: 2 })).toEqual(["alice", "bob"]);
    expect(await run({ limit: 2, offset: 3 })).toEqual(["dave", "erin"]);
    expect(await run({ limit: 2, page: 3 })).toEqual(["erin", "pct"]);
    expect(await run({ limit: 2, page: 2, offset: 5 })).toEqual(["carol", "dave"]);
    const q = parseCrudQuery({}, OPTIONS);
    expect([q.limit, q.offset, q.page]).toEqual([25, 0, 1]);
    expect(parseCrudQuery({ limit: 10, offset: 25 }, OPTIONS).page).toBe(3);
  });

  it("answers the nestjsx/crud envelope", async () => {
    const query = parseCrudQuery({ limit: 4, page: 2, filter: "roles||$cont||user" }, OPTIONS);
    const page = await crudList(query, {
      total: async (where) => {
        const [row] = await t.db
          .select({ n: count() })
          .from(users)
          .leftJoin(profiles, eq(profiles.userUuid, users.uuid))
          .where(where);
        return row?.n ?? 0;
      },
      rows: (q) => applyCrud(t.db.select({ email: users.email }).from(users).$dynamic(), q),
    });
    expect(page).toEqual({ data: [{ email: "100%_off@sale.test" }], count: 1, total: 5, page: 2, pageCount: 2 });
    const empty = await crudList(parseCrudQuery({ filter: "email||$eq||none" }, OPTIONS), {
      total: async () => 0,
      rows: async () => [],
    });
    expect(empty).toEqual({ data: [], count: 0, total: 0, page: 1, pageCount: 1 });
  });
});

describe("fields and join", () => {
  it("lists the fields asked for, always with the primary key", () => {
    expect(parseCrudQuery({}, OPTIONS).fields).toBeNull();
    expect(parseCrudQuery({ fields: "email,nickname" }, OPTIONS).fields).toEqual(["uuid", "email", "nickname"]);
    expect(parseSelection({ fields: ["email", "roles,email"] }, OPTIONS).fields).toEqual(["uuid", "email", "roles"]);
  });

  it("accepts allowed relations, with or without fields", () => {
    expect(parseSelection({ join: "profile" }, OPTIONS).joins).toEqual({ profile: null });
    expect(parseSelection({ join: "profile||nickname,bio" }, OPTIONS).joins).toEqual({ profile: ["nickname", "bio"] });
    expect(parseSelection({}, OPTIONS).joins).toEqual({});
  });

  it("picks fields from an item", () => {
    const item = { uuid: "u", email: "e", roles: [], profile: null };
    expect(pickFields(item, null)).toBe(item);
    expect(pickFields(item, ["uuid", "email"], ["profile"])).toEqual({ uuid: "u", email: "e", profile: null });
  });
});

describe("bad requests name what is wrong", () => {
  it("refuses unknown fields everywhere", () => {
    expect(rejection({ filter: "password||$eq||x" })).toBe(
      'Unknown field "password" in filter. Known fields: uuid, email, roles, tokenVersion, createdAt, deactivatedAt, lastLoginAt, nickname, displayPronouns, isBot.',
    );
    expect(rejection({ or: "passwordHash||$eq||x" })).toMatch(/^Unknown field "passwordHash" in or\./);
    expect(rejection({ sort: "passwordHash,ASC" })).toMatch(/^Unknown field "passwordHash" in sort\./);
    expect(rejection({ fields: "email,passwordHash" })).toMatch(/^Unknown field "passwordHash" in fields\./);
    expect(rejection({ s: '{"passwordHash": "x"}' })).toMatch(/^Unknown field "passwordHash" in s\./);
    expect(rejection({ s: '{"$or": [{"toString": 1}]}' })).toMatch(/^Unknown field "toString" in s\./);
    expect(rejection({ filter: "constructor||$eq||x" })).toMatch(/^Unknown field "constructor"/);
  });

  it("refuses unknown operators and ones the field's type cannot take", () => {
    expect(rejection({ filter: "email||$like||x" })).toBe('Unknown operator "$like" in filter for field "email".');
    expect(rejection({ s: '{"email": {"$regex": "x"}}' })).toBe('Unknown operator "$regex" in s for field "email".');
    expect(rejection({ filter: "createdAt||$cont||2026" })).toBe(
      'Operator $cont is not supported for field "createdAt" in filter.',
    );
    expect(rejection({ filter: "uuid||$gt||x" })).toBe('Operator $gt is not supported for field "uuid" in filter.');
    expect(rejection({ filter: "roles||$eq||user" })).toBe(
      'Operator $eq is not supported for field "roles" in filter.',
    );
    expect(rejection({ filter: "isBot||$contL||t" })).toMatch(/\$contL is not supported for field "isBot"/);
  });

  it("refuses values of the wrong type", () => {
    expect(rejection({ filter: "uuid||$eq||not-a-uuid" })).toBe(
      'Invalid value "not-a-uuid" for field "uuid" in filter: expected a uuid.',
    );
    expect(rejection({ filter: "createdAt||$gt||yesterday" })).toBe(
      'Invalid value "yesterday" for field "createdAt" in filter: expected an ISO 8601 date.',
    );
    expect(rejection({ filter: "tokenVersion||$eq||1.5" })).toMatch(/expected an integer\.$/);
    expect(rejection({ filter: "tokenVersion||$eq||99999999999" })).toMatch(/expected an integer\.$/);
    expect(rejection({ filter: "isBot||$eq||maybe" })).toMatch(/expected true or false\.$/);
    expect(rejection({ filter: "roles||$cont||wizard" })).toBe(
      'Invalid value "wizard" for field "roles" in filter: expected one of globalModerator, admin, moderator, staff, promoter, user, superUser, bot.',
    );
    expect(rejection({ s: '{"tokenVersion": "many"}' })).toMatch(/^Invalid value "many" for field "tokenVersion" in s/);
    expect(rejection({ s: '{"email": {"$eq": {"nested": 1}}}' })).toMatch(/expected a string\.$/);
    expect(rejection({ filter: "email||$eq||" })).toBe('Operator $eq for field "email" in filter needs a value.');
    expect(rejection({ filter: "tokenVersion||$between||1" })).toBe(
      'Operator $between for field "tokenVersion" in filter needs exactly two values.',
    );
    expect(rejection({ s: '{"email": {"$in": "a"}}' })).toMatch(/needs an array of values\.$/);
  });

  it("refuses malformed syntax", () => {
    expect(rejection({ filter: "email" })).toBe('Invalid filter "email": expected field||$operator||value.');
    expect(rejection({ or: "||$eq||x" })).toBe('Invalid or "||$eq||x": expected field||$operator||value.');
    expect(rejection({ sort: "email" })).toBe('Invalid sort "email": expected field,ASC or field,DESC.');
    expect(rejection({ sort: "email,UP" })).toBe('Invalid sort "email,UP": expected field,ASC or field,DESC.');
    expect(rejection({ s: "{not json" })).toBe("Invalid search condition (s): not valid JSON.");
    expect(rejection({ s: "[1]" })).toBe("Invalid search condition (s): expected an object.");
    expect(rejection({ s: '{"$or": {"email": "x"}}' })).toBe("Invalid search condition (s): $or expects an array.");
    expect(rejection({ s: '{"email": ["a"]}' })).toMatch(/use \{"\$in": \[\.\.\.\]\}/);
    expect(rejection({ s: '{"$not": {}}' })).toMatch(/unexpected "\$not"/);
    expect(rejection({ s: '{"email": {}}' })).toBe(
      'Invalid search condition (s) for field "email": no operator given.',
    );
    expect(rejection({ join: "secrets" })).toBe('Unknown relation "secrets" in join. Known relations: profile.');
    expect(rejection({ join: "profile||passwordHash" })).toBe(
      'Unknown field "passwordHash" in join profile. Known fields: nickname, bio.',
    );
    expect(rejection({ limit: 5000 })).toBe("Invalid limit 5000: expected 1 to 1000.");
  });

  it("refuses conditions nested too deep or too many", () => {
    let deep: unknown = { email: "x" };
    for (let i = 0; i < 10; i++) deep = { $and: [deep] };
    expect(rejection({ s: JSON.stringify(deep) })).toMatch(/nested deeper than/);
    expect(rejection({ filter: Array.from({ length: 101 }, () => "email||$eq||x") })).toBe(
      "Too many conditions: at most 100.",
    );
  });
});

describe("the OpenAPI schemas", () => {
  it("takes repeated parameters as arrays and bounds the page size", () => {
    const ok = CrudQuerySchema.parse({ filter: ["a||$eq||1", "b||$eq||2"], sort: "a,ASC", limit: "10", page: "2" });
    expect(ok).toMatchObject({ filter: ["a||$eq||1", "b||$eq||2"], sort: "a,ASC", limit: 10, page: 2 });
    expect(CrudQuerySchema.safeParse({ limit: "1001" }).success).toBe(false);
    expect(CrudQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(CrudQuerySchema.safeParse({ offset: "-1" }).success).toBe(false);
    expect(CrudQuerySchema.safeParse({ page: "0" }).success).toBe(false);
  });

  it("describes the envelope around any item", () => {
    const Page = crudPageSchema(CrudQuerySchema.pick({ s: true }));
    expect(Page.safeParse({ data: [{ s: "x" }], count: 1, total: 1, page: 1, pageCount: 1 }).success).toBe(true);
    expect(Page.safeParse({ data: [], count: 0 }).success).toBe(false);
  });
});
