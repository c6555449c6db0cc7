// Edge cases of the image routes (profile-images.routes.ts), beyond the main paths that profiles.test.ts covers:
// the sniffed type wins over the declared one, the size limit, storage and profile effects of upload and delete,
// admins deleting, malformed uploads, and the upload rate limit.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expectRefusal, multipart, openTestApp, type TestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const b64 = (s: string) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));
// Real 1x1 images.
const PNG = b64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");
const GIF = b64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7");
const WEBP = b64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

const upload = (
  token: string | null,
  bytes: Uint8Array,
  type = "profilePicture",
  declared = "image/png",
): Promise<Awaited<ReturnType<TestApp["request"]>>> => {
  const form = new FormData();
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], "picture.png", { type: declared }));
  form.set("type", type);
  return t.request("POST", `${P}/users/images`, { token, body: form });
};
const imageRows = (userUuid: string) => t.db.select().from(schema.images).where(eq(schema.images.userUuid, userUuid));
const profileRow = async (uuid: string) =>
  (await t.db.select().from(schema.profiles).where(eq(schema.profiles.userUuid, uuid)))[0];

describe("POST /users/images", () => {
  it("stores the type found in the bytes, not the one declared, and serves it back with cache headers", async () => {
    const me = await t.createUser();
    const res = await upload(me.token, GIF, "profilePicture", "image/png");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userUuid: me.user.uuid, type: "profilePicture", contentType: "image/gif" });
    expect(res.body.size).toBe(GIF.length);
    expect(res.body.url).toBe(`/api/user-service/users/images/${res.body.id}`);
    const [row] = await imageRows(me.user.uuid);
    expect(row).toMatchObject({ id: res.body.id, contentType: "image/gif", size: GIF.length });
    expect((await t.deps.storage.get(row?.storageKey ?? ""))?.data).toEqual(GIF);

    const served = await t.app.request(res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(served.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(GIF);
  });

  it("accepts jpeg and webp; a cover picture sets the cover only; a new picture replaces the profile's", async () => {
    const me = await t.createUser();
    const jpeg = await upload(me.token, JPEG, "profilePicture", "application/octet-stream");
    expect(jpeg.body.contentType).toBe("image/jpeg");
    const cover = await upload(me.token, WEBP, "coverPicture", "image/webp");
    expect(cover.body.contentType).toBe("image/webp");
    expect(await profileRow(me.user.uuid)).toMatchObject({
      profilePicture: jpeg.body.url,
      coverPicture: cover.body.url,
    });
    const next = await upload(me.token, PNG);
    expect(await profileRow(me.user.uuid)).toMatchObject({
      profilePicture: next.body.url,
      coverPicture: cover.body.url,
    });
    expect(await imageRows(me.user.uuid)).toHaveLength(3);
  });

  it("refuses a file over 5 MB with 413 and accepts one of exactly 5 MB", async () => {
    const me = await t.createUser();
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    const refused = await upload(me.token, big);
    expectRefusal(refused, 413, "The image is larger than 5 MB.");
    expect(await imageRows(me.user.uuid)).toHaveLength(0);
    expect((await profileRow(me.user.uuid))?.profilePicture).toBeNull();
    const exact = await upload(me.token, big.subarray(0, 5 * 1024 * 1024));
    expect(exact.status).toBe(201);
    expect(exact.body.size).toBe(5 * 1024 * 1024);
  });

  it("refuses non-images, empty files and malformed forms without storing anything", async () => {
    const me = await t.createUser();
    const svg = await upload(me.token, new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"));
    expectRefusal(svg, 415, "The file is not a png, jpeg, webp or gif image.");
    expect((await upload(me.token, new Uint8Array(0))).status).toBe(415);
    expect((await upload(me.token, PNG.subarray(0, 4))).status).toBe(415);

    const noFile = new FormData();
    noFile.set("type", "profilePicture");
    const missing = await t.api(me.token).user.POST("/users/images", { ...multipart(noFile) });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.message).toHaveLength(1);
    expect(missing.error?.message[0]).toMatch(/^file: /);

    const textFile = new FormData();
    textFile.set("file", "iVBORw0KGgo=");
    textFile.set("type", "profilePicture");
    expect((await t.api(me.token).user.POST("/users/images", { ...multipart(textFile) })).response.status).toBe(400);

    const noType = new FormData();
    noType.set("file", new File([PNG], "a.png", { type: "image/png" }));
    const untyped = await t.api(me.token).user.POST("/users/images", { ...multipart(noType) });
    expect(untyped.response.status).toBe(400);
    expect(untyped.error?.message[0]).toMatch(/^type: /);

    const asJson = await t.api(me.token).user.POST("/users/images", { body: { file: "x", type: "profilePicture" } });
    expect(asJson.response.status).toBe(415);
    expect(asJson.error).toMatchObject({ statusCode: 415, error: "Unsupported Media Type" });

    expect(await imageRows(me.user.uuid)).toHaveLength(0);
    expect((await profileRow(me.user.uuid))?.profilePicture).toBeNull();
  });

  it("refuses guests and banned users", async () => {
    const me = await t.createUser();
    expect((await upload(await t.tokenFor(me.user.uuid, "guest"), PNG)).status).toBe(401);
    await t.db.insert(schema.sanctions).values({ userUuid: me.user.uuid, type: "ban", createdAt: t.clock.now() });
    await t.accountChanged(me.user.uuid);
    const banned = await upload(me.token, PNG);
    expectRefusal(banned, 403, "This account is banned.");
    expect(await imageRows(me.user.uuid)).toHaveLength(0);
  });

  it("limits uploads to 30 an hour per user", async () => {
    const me = await t.createUser();
    for (let i = 0; i < 30; i++) expect((await upload(me.token, PNG)).status).toBe(201);
    const limited = await upload(me.token, PNG);
    expectRefusal(limited, 429, "Too many attempts, please try again later.");
    expect(await imageRows(me.user.uuid)).toHaveLength(30);
    // The window is per user: someone else still uploads.
    expect((await upload((await t.createUser()).token, PNG)).status).toBe(201);
  });
});

describe("GET /users/images/{id}", () => {
  it("answers 404 for an unknown image and 400 for a bad id", async () => {
    const missing = await t.request("GET", `${P}/users/images/${crypto.randomUUID()}`);
    expectRefusal(missing, 404, "Image not found.");
    expect((await t.request("GET", `${P}/users/images/nope`)).status).toBe(400);
  });
});

describe("DELETE /users/images/{id}", () => {
  it("removes the row and the bytes, and leaves the profile alone when it shows another picture", async () => {
    const me = await t.createUser();
    const old = await upload(me.token, PNG);
    const current = await upload(me.token, GIF);
    const [oldRow] = (await imageRows(me.user.uuid)).filter((r) => r.id === old.body.id);
    const res = await t.api(me.token).user.DELETE("/users/images/{id}", { params: { path: { id: old.body.id } } });
    expect(res.response.status).toBe(204);
    expect((await imageRows(me.user.uuid)).map((r) => r.id)).toEqual([current.body.id]);
    expect(await t.deps.storage.get(oldRow?.storageKey ?? "")).toBeNull();
    expect((await profileRow(me.user.uuid))?.profilePicture).toBe(current.body.url);
    const again = await t.api(me.token).user.DELETE("/users/images/{id}", { params: { path: { id: old.body.id } } });
    expectRefusal(again, 404, "Image not found.");
  });

  it("lets an admin delete anyone's picture, clearing it from the profile", async () => {
    const owner = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const up = await upload(owner.token, PNG);
    const res = await t.api(admin.token).user.DELETE("/users/images/{id}", { params: { path: { id: up.body.id } } });
    expect(res.response.status).toBe(204);
    expect(await imageRows(owner.user.uuid)).toHaveLength(0);
    expect((await profileRow(owner.user.uuid))?.profilePicture).toBeNull();
  });

  it("refuses moderators and strangers with the catalogue message, keeping the image", async () => {
    const owner = await t.createUser();
    const up = await upload(owner.token, PNG, "coverPicture");
    for (const roles of [["user"], ["user", "globalModerator"], ["user", "staff"]] as const) {
      const other = await t.createUser({ roles: [...roles] });
      const res = await t.api(other.token).user.DELETE("/users/images/{id}", { params: { path: { id: up.body.id } } });
      expectRefusal(res, 403, "Unauthorized to delete.", "UNAUTHORIZED_TO_DELETE");
    }
    expect(
      (await t.api().user.DELETE("/users/images/{id}", { params: { path: { id: up.body.id } } })).response.status,
    ).toBe(401);
    expect(
      (await t.api(owner.token).user.DELETE("/users/images/{id}", { params: { path: { id: "bad-id" } } })).response
        .status,
    ).toBe(400);
    expect(await imageRows(owner.user.uuid)).toHaveLength(1);
    expect((await profileRow(owner.user.uuid))?.coverPicture).toBe(up.body.url);
    expect((await t.app.request(up.body.url)).status).toBe(200);
  });

  it("keeps an admin's picture from another admin, but not from a superUser", async () => {
    const owner = await t.createUser({ roles: ["user", "admin"] });
    const up = await upload(owner.token, PNG);
    const peer = await t.createUser({ roles: ["user", "admin"] });
    const refused = await t.api(peer.token).user.DELETE("/users/images/{id}", { params: { path: { id: up.body.id } } });
    expectRefusal(refused, 403, "Unauthorized to delete.");
    expect(await imageRows(owner.user.uuid)).toHaveLength(1);
    const su = await t.createUser({ roles: ["user", "superUser"] });
    expect(
      (await t.api(su.token).user.DELETE("/users/images/{id}", { params: { path: { id: up.body.id } } })).response
        .status,
    ).toBe(204);
    expect(await imageRows(owner.user.uuid)).toHaveLength(0);
  });
});
