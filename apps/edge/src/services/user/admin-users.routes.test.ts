// The staff users list and single read (served by admin-user-list.routes.ts), through the whole app.
import { beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, openTestApp, type TestUser } from "../../testing.ts";

const P = "/api/user-service";

const t = openTestApp();
let staff: TestUser;
let plain: TestUser;
let moderator: TestUser;
const people: Record<string, TestUser> = {};

beforeAll(async () => {
  staff = await t.createUser({ roles: ["user", "staff"], email: "staff@team.test", nickname: "Staffer" });
  plain = await t.createUser({ email: "plain@team.test", nickname: "Plain" });
  moderator = await t.createUser({ roles: ["user", "moderator"], email: "mod@team.test", nickname: "Moddy" });
  for (const [key, roles] of [
    ["abc1", ["user"]],
    ["abc2", ["user", "admin"]],
    ["xyz", ["bot"]],
    ["abc3", ["user"]],
  ] as const) {
    t.clock.advance(3600);
    people[key] = await t.createUser({ email: `${key}@list.test`, nickname: `Nick-${key}`, roles: [...roles] });
  }
  await t.changeUser(people.abc3!.user.uuid, { deactivatedAt: t.clock.now() });
});

const list = (query: Record<string, string | number> | string, token: string | null = staff.token) =>
  typeof query === "string"
    ? t.request("GET", `${P}/admin/users?${query}`, { token })
    : t.request("GET", `${P}/admin/users`, { token, query });
const emails = (body: { data: { email: string }[] }) => body.data.map((u) => u.email);

describe("GET /admin/users", () => {
  it("answers the nestjsx/crud envelope, newest first, with userView items and the nickname", async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 7, total: 7, page: 1, pageCount: 1 });
    expect(emails(res.body)).toEqual([
      "abc3@list.test",
      "xyz@list.test",
      "abc2@list.test",
      "abc1@list.test",
      // created at the same instant: then by uuid
      ...["staff@team.test", "plain@team.test", "mod@team.test"]
        .map((e) => ({ e, uuid: [staff, plain, moderator].find((u) => u.email === e)!.user.uuid }))
        .sort((a, b) => a.uuid.localeCompare(b.uuid))
        .map((x) => x.e),
    ]);
    const abc2 = res.body.data.find((u: { email: string }) => u.email === "abc2@list.test");
    expect(abc2).toMatchObject({
      uuid: people.abc2!.user.uuid,
      roles: ["user", "admin"],
      nickname: "Nick-abc2",
      isBot: false,
      deactivatedAt: null,
      badges: [],
      capabilities: [],
    });
    expect(abc2.profile).toBeUndefined();
    expect(abc2.passwordHash).toBeUndefined();
  });

  it("filters, sorts and combines conditions", async () => {
    const cont = await list({ filter: "email||$cont||abc", sort: "createdAt,DESC" });
    expect(cont.status).toBe(200);
    expect(emails(cont.body)).toEqual(["abc3@list.test", "abc2@list.test", "abc1@list.test"]);
    expect(cont.body.total).toBe(3);

    const asc = await list({ filter: "email||$cont||abc", sort: "createdAt,ASC" });
    expect(emails(asc.body)).toEqual(["abc1@list.test", "abc2@list.test", "abc3@list.test"]);

    const both = await list("filter=email||$cont||abc&filter=deactivatedAt||$isnull&sort=email,ASC");
    expect(emails(both.body)).toEqual(["abc1@list.test", "abc2@list.test"]);

    const ors = await list("or=roles||$cont||admin&or=isBot||$eq||true&sort=email,ASC");
    expect(emails(ors.body)).toEqual(["abc2@list.test", "xyz@list.test"]);

    const nick = await list({ filter: "nickname||$eqL||nick-XYZ" });
    expect(emails(nick.body)).toEqual(["xyz@list.test"]);
    expect(nick.body.data[0].isBot).toBe(true);
  });

  it("takes an s search condition, which replaces filter", async () => {
    const s = JSON.stringify({ $or: [{ email: { $starts: "abc1" } }, { roles: { $cont: "moderator" } }] });
    const res = await list({ s, filter: "email||$eq||nobody", sort: "email,ASC" });
    expect(res.status).toBe(200);
    expect(emails(res.body)).toEqual(["abc1@list.test", "mod@team.test"]);
  });

  it("pages with limit, offset and page", async () => {
    const first = await list({ filter: "email||$ends||@list.test", limit: 3 });
    expect(first.body).toMatchObject({ count: 3, total: 4, page: 1, pageCount: 2 });
    const second = await list({ filter: "email||$ends||@list.test", limit: 3, page: 2 });
    expect(second.body).toMatchObject({ count: 1, total: 4, page: 2, pageCount: 2 });
    expect(emails(second.body)).toEqual(["abc1@list.test"]);
    const offset = await list({ filter: "email||$ends||@list.test", limit: 2, offset: 1 });
    expect(emails(offset.body)).toEqual(["xyz@list.test", "abc2@list.test"]);
  });

  it("answers only the fields asked for, and the profile when joined", async () => {
    const res = await list({ fields: "email,nickname", filter: "email||$eq||abc1@list.test" });
    expect(res.body.data).toEqual([{ uuid: people.abc1!.user.uuid, email: "abc1@list.test", nickname: "Nick-abc1" }]);
    const joined = await list({ filter: "email||$eq||abc1@list.test", join: "profile" });
    expect(joined.body.data[0].profile).toMatchObject({
      nickname: "Nick-abc1",
      color: "#8B5CF6",
      uuid: people.abc1!.user.uuid,
    });
    const some = await list({ fields: "email", filter: "email||$eq||abc1@list.test", join: "profile||nickname,bio" });
    expect(some.body.data).toEqual([
      { uuid: people.abc1!.user.uuid, email: "abc1@list.test", profile: { nickname: "Nick-abc1", bio: null } },
    ]);
  });

  it("answers 400 naming an unknown field, operator or bad value", async () => {
    const unknown = await list({ filter: "passwordHash||$eq||x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(
      'Unknown field "passwordHash" in filter. Known fields: uuid, email, roles, badges, capabilities, createdAt, lastLoginAt, deactivatedAt, verifiedAt, nickname, isBot.',
    );
    expect((await list({ sort: "tokenVersion,ASC" })).body.message).toMatch(/^Unknown field "tokenVersion" in sort/);
    expect((await list({ filter: "email||$regex||x" })).body.message).toBe(
      'Unknown operator "$regex" in filter for field "email".',
    );
    expect((await list({ filter: "createdAt||$gt||soon" })).status).toBe(400);
    expect((await list({ s: "{broken" })).body.message).toBe("Invalid search condition (s): not valid JSON.");
    expect((await list({ join: "emails" })).body.message).toBe(
      'Unknown relation "emails" in join. Known relations: profile.',
    );
    const limit = await list({ limit: 5000 });
    expect(limit.status).toBe(400);
    expect(limit.body.message[0]).toMatch(/^limit: /);
  });

  it("is for staff: 401 without a token, 403 for a plain user or a moderator", async () => {
    expect((await list({}, null)).status).toBe(401);
    const forbidden = await list({}, plain.token);
    expectRefusal(forbidden, 403, "Forbidden", "FORBIDDEN");
    expect((await list({}, moderator.token)).status).toBe(403);
  });
});

describe("GET /admin/users/{id}", () => {
  const one = (id: string, query: Record<string, string> = {}, token: string | null = staff.token) =>
    t.request("GET", `${P}/admin/users/${id}`, { token, query });

  it("answers one user, with the fields and join options", async () => {
    const res = await one(people.xyz!.user.uuid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uuid: people.xyz!.user.uuid,
      email: "xyz@list.test",
      isBot: true,
      nickname: "Nick-xyz",
    });
    expect(res.body.profile).toBeUndefined();
    const cut = await one(people.xyz!.user.uuid, { fields: "roles", join: "profile||nickname" });
    expect(cut.body).toEqual({ uuid: people.xyz!.user.uuid, roles: ["bot"], profile: { nickname: "Nick-xyz" } });
  });

  it("answers 404 for an unknown user and 400 for a bad id or field", async () => {
    const missing = await one(crypto.randomUUID());
    expectRefusal(missing, 404, "User not found.");
    expect((await one("not-a-uuid")).status).toBe(400);
    const field = await one(people.xyz!.user.uuid, { fields: "passwordHash" });
    expect(field.status).toBe(400);
    expect(field.body.message).toMatch(/^Unknown field "passwordHash" in fields\./);
  });

  it("is for staff", async () => {
    expect((await one(people.xyz!.user.uuid, {}, null)).status).toBe(401);
    expect((await one(people.xyz!.user.uuid, {}, plain.token)).status).toBe(403);
  });
});

describe("the OpenAPI contract", () => {
  it("documents both routes with the crud query parameters and the envelope", async () => {
    const doc = (await t.request("GET", `${P}/openapi.json`)).body;
    const listOp = doc.paths["/admin/users"].get;
    const names = listOp.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(["fields", "s", "filter", "or", "sort", "join", "limit", "offset", "page", "cache"]),
    );
    expect(Object.keys(listOp.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
    expect(doc.components.schemas.AdminUserPage).toBeDefined();
    expect(Object.keys(doc.paths["/admin/users/{id}"].get.responses)).toContain("404");
  });
});
