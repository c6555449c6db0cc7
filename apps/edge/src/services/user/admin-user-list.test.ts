import { describe, expect, it } from "vitest";
import { openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";

describe("admin users list", () => {
  it("filters, searches, sorts and pages in the nestjsx/crud syntax", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    await t.createUser({ email: "zeta-crud@example.com", nickname: "Zeta_Crud" });
    t.clock.advance(1);
    await t.createUser({ email: "alpha-crud@example.com", nickname: "alpha_crud", roles: ["user", "promoter"] });
    const get = (query: Record<string, string | number>) =>
      t.request("GET", `${P}/admin/users?${new URLSearchParams(query as Record<string, string>)}`, {
        token: staff.token,
      });

    const cont = await get({ filter: "email||$cont||-crud@", sort: "email,ASC" });
    expect(cont.status).toBe(200);
    expect(cont.body.data.map((u: { email: string }) => u.email)).toEqual([
      "alpha-crud@example.com",
      "zeta-crud@example.com",
    ]);
    expect(cont.body).toMatchObject({ count: 2, total: 2, page: 1, pageCount: 1 });

    const insensitive = await get({ filter: "nickname||$contL||ZETA" });
    expect(insensitive.body.data.map((u: { nickname: string }) => u.nickname)).toEqual(["Zeta_Crud"]);

    const roles = await get({ filter: "roles||$cont||promoter" });
    expect(roles.body.data.every((u: { roles: string[] }) => u.roles.includes("promoter"))).toBe(true);

    const search = await get({
      s: JSON.stringify({ $or: [{ email: "zeta-crud@example.com" }, { nickname: { $eq: "alpha_crud" } }] }),
    });
    expect(search.body.total).toBe(2);

    const paged = await get({ filter: "email||$ends||-crud@example.com", sort: "createdAt,DESC", limit: 1, page: 2 });
    expect(paged.body.data.map((u: { email: string }) => u.email)).toEqual(["zeta-crud@example.com"]);
    expect(paged.body).toMatchObject({ count: 1, total: 2, page: 2, pageCount: 2 });

    const fields = await get({ filter: "email||$eq||zeta-crud@example.com", fields: "email" });
    expect(Object.keys(fields.body.data[0]).sort()).toEqual(["email", "uuid"]);

    const like = await get({ filter: "email||$cont||%" });
    expect(like.body.total).toBe(0);
  });

  it("answers 400 naming an unknown field, operator or bad value", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    for (const [query, text] of [
      ["filter=password||$eq||x", "password"],
      ["filter=email||$regex||x", "$regex"],
      ["filter=createdAt||$gt||yesterday", "yesterday"],
      ["sort=secret,ASC", "secret"],
      ["s={bad json", "JSON"],
      ["join=sessions", "sessions"],
      ["limit=5000", "limit"],
    ] as const) {
      const res = await t.request("GET", `${P}/admin/users?${query}`, { token: staff.token });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body.message), query).toContain(text);
    }
  });

  it("shows one user with the profile joined, to staff only", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const { user, token } = await t.createUser({ nickname: "single" });
    const one = await t
      .api(staff.token)
      .user.GET("/admin/users/{id}", { params: { path: { id: user.uuid }, query: { join: "profile" } } });
    expect(one.data?.profile?.nickname).toBe("single");
    expect(
      (await t.api(staff.token).user.GET("/admin/users/{id}", { params: { path: { id: crypto.randomUUID() } } }))
        .response.status,
    ).toBe(404);
    expect(
      (await t.api(token).user.GET("/admin/users/{id}", { params: { path: { id: user.uuid } } })).response.status,
    ).toBe(403);
    expect((await t.api(token).user.GET("/admin/users")).response.status).toBe(403);
    expect((await t.api().user.GET("/admin/users")).response.status).toBe(401);
  });
});
