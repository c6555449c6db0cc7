import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { getExampleNumber } from "libphonenumber-js/max";
import examples from "libphonenumber-js/mobile/examples";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, expectStatuses, ok, openTestApp, statusOf } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const REFUSED = "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.";
// Real-looking numbers from libphonenumber's own examples: a mobile, then numbers of neighbouring series.
const mobile = (country: "GB" | "US" | "DE" | "FR" | "ES") => getExampleNumber(country, examples)!.number;
const ukVoip = "+445612345678";
const ukLandline = "+441212345678";
const codeIn = async (to: string) => (await t.lastMessage(to))?.body.match(/code is (\d{6})/)?.[1] ?? "";

describe("phone validation", () => {
  it("tells mobiles, VoIP lines, landlines and garbage apart, and keeps each check", async () => {
    const cases = [
      [mobile("GB"), "VALID"],
      [ukVoip, "VOIP"],
      [ukLandline, "INVALID"],
      ["+4412", "INVALID"],
      ["not a number", "VALIDATION_ERROR"],
    ] as const;
    for (const [phone, status] of cases) {
      t.clock.advance(1);
      const res = await t.api().user.GET("/phone-validation/validate/{phone}", { params: { path: { phone } } });
      expect(res.response.status, phone).toBe(200);
      expect(res.data?.status, phone).toBe(status);
    }
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const recents = await t.api(staff.token).user.GET("/phone-validation/recents", { params: { query: { limit: 5 } } });
    expect(recents.data?.data.map((r) => r.status)).toEqual([
      "VALIDATION_ERROR",
      "INVALID",
      "INVALID",
      "VOIP",
      "VALID",
    ]);
  });

  it("lets staff read recents and admins clear them; others are refused", async () => {
    const user = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await t.api().user.GET("/phone-validation/recents")).response.status).toBe(401);
    expect((await t.api(user.token).user.GET("/phone-validation/recents")).response.status).toBe(403);
    expect((await t.api(staff.token).user.DELETE("/phone-validation/recents")).response.status).toBe(403);
    const notADate = { params: { query: { olderThan: "soon" } } };
    expect(await statusOf(t.api(admin.token).user.DELETE("/phone-validation/recents", notADate))).toBe(400);
    const cleared = await t.api(admin.token).user.DELETE("/phone-validation/recents");
    expect(cleared.response.status).toBe(200);
    expect((await t.api(staff.token).user.GET("/phone-validation/recents")).data?.total).toBe(0);
  });

  it("publishes the constants it applies", async () => {
    const res = await t.api().user.GET("/phone-validation/fraudConstants");
    expect(res.data?.refusedLineTypes).toContain("VOIP");
    expect(res.data?.codeTtlSeconds).toBe(600);
  });
});

describe("sign-in by phone", () => {
  it("sends a code to a real mobile and signs in: first a new account, then the same one", async () => {
    const phone = mobile("DE");
    const sent = await t.api().user.POST("/mobile-auth/send-code", { body: { phone, channel: "whatsapp" } });
    expect(sent.response.status).toBe(200);
    const message = await t.lastMessage(phone);
    expect(message?.channel).toBe("whatsapp");
    const first = await t.api().user.POST("/mobile-auth/verify-code", { body: { phone, code: await codeIn(phone) } });
    expect(first.response.status).toBe(201);
    expect(first.data?.user.email).toBeNull();
    await t.api().user.POST("/mobile-auth/send-code", { body: { phone } });
    const again = await t.api().user.POST("/mobile-auth/verify-code", { body: { phone, code: await codeIn(phone) } });
    expect(again.response.status).toBe(200);
    expect(again.data?.user.uuid).toBe(ok(first).user.uuid);
    expect((await t.api(ok(again).accessToken).user.GET("/auth/session")).response.status).toBe(200);
  });

  it("refuses VoIP and invalid numbers with the spec's message, sending nothing", async () => {
    // Raw: malformed input, which the typed client cannot send.
    for (const phone of [ukVoip, ukLandline, "12"]) {
      const res = await t.request("POST", `${P}/mobile-auth/send-code`, { body: { phone } });
      expectRefusal(res, 400, REFUSED);
    }
    expect(await t.lastMessage(ukVoip)).toBeNull();
  });

  it("refuses a wrong code; five wrong guesses stop that address, not the owner, whose code still works", async () => {
    const phone = mobile("FR");
    await t.api().user.POST("/mobile-auth/send-code", { body: { phone } });
    const code = await codeIn(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    const stranger = { "x-forwarded-for": "198.51.100.7" };
    const guess = (body: object, headers = stranger) =>
      t.request("POST", `${P}/mobile-auth/verify-code`, { body, headers });
    const res = await guess({ phone, code: wrong });
    expectRefusal(res, 401, "The code is incorrect or has expired.");
    for (let i = 0; i < 4; i++) expect((await guess({ phone, code: wrong })).status).toBe(401);
    const stopped = await guess({ phone, code });
    expect(stopped.status).toBe(429);
    expect(Number(stopped.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await guess({ phone, code: "12" })).status).toBe(400);
    // The stranger neither burnt the code nor locked the number: its owner signs in from their own address.
    expect((await guess({ phone, code }, { "x-forwarded-for": "192.0.2.44" })).status).toBe(201);
  });

  it("limits codes per number: 5 an hour from one address, 20 from all addresses together", async () => {
    const phone = mobile("ES");
    const send = (address: string) =>
      t.request("POST", `${P}/mobile-auth/send-code`, { body: { phone }, headers: { "x-forwarded-for": address } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send("10.0.1.1")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    for (let i = 0; i < 15; i++) expect((await send(`10.0.2.${i}`)).status).toBe(200);
    expect((await send("10.0.3.1")).status).toBe(429);
  });
});

describe("whitelist", () => {
  it("admins whitelist a VoIP number, which then may sign in; others are refused", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const body = { phone: "+44 56 1234 5679", note: "support line" };
    expect((await t.api().user.POST("/mobile-auth/whitelist", { body })).response.status).toBe(401);
    expect((await t.api(staff.token).user.POST("/mobile-auth/whitelist", { body })).response.status).toBe(403);
    const added = await t.api(admin.token).user.POST("/mobile-auth/whitelist", { body });
    expect(added.response.status).toBe(201);
    expect(added.data?.phone).toBe("+445612345679");
    expect((await t.api(admin.token).user.POST("/admin/phoneNumbers", { body })).response.status).toBe(409);
    const sendCode = () => t.api().user.POST("/mobile-auth/send-code", { body: { phone: "+445612345679" } });
    expect(await statusOf(sendCode())).toBe(200);

    const list = await t.api(staff.token).user.GET("/admin/phoneNumbers");
    expect(list.data?.data.map((r) => r.phone)).toContain("+445612345679");
    const theNumber = { params: { path: { id: ok(added).id } } };
    expect((await t.api(staff.token).user.GET("/admin/phoneNumbers/{id}", theNumber)).data?.note).toBe("support line");
    expect(await statusOf(t.api(staff.token).user.DELETE("/admin/phoneNumbers/{id}", theNumber))).toBe(403);
    const byPhone = { params: { path: { phone: "+445612345679" } } };
    expect(await statusOf(t.api(admin.token).user.DELETE("/mobile-auth/whitelist/{phone}", byPhone))).toBe(204);
    expect(await statusOf(t.api(staff.token).user.GET("/admin/phoneNumbers/{id}", theNumber))).toBe(404);
    expect(await statusOf(sendCode())).toBe(400);
  });

  it("manages numbers through the admin panel routes", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const user = await t.createUser();
    const added = await t.api(admin.token).user.POST("/admin/phoneNumbers", { body: { phone: "+15005550006" } });
    expect(added.response.status).toBe(201);
    expect((await t.api(user.token).user.GET("/admin/phoneNumbers")).response.status).toBe(403);
    expect(await statusOf(t.api(admin.token).user.POST("/admin/phoneNumbers", { body: { phone: "call me" } }))).toBe(
      400,
    );
    const remove = () =>
      t.api(admin.token).user.DELETE("/admin/phoneNumbers/{id}", { params: { path: { id: ok(added).id } } });
    expect(await statusOf(remove())).toBe(204);
    expect(await statusOf(remove())).toBe(404);
  });
});

describe("identity verification and user identities", () => {
  it("verifies the caller's number: a verified identity and the IDENTITY_VERIFIED badge", async () => {
    const { user, token } = await t.createUser();
    const phone = mobile("GB");
    const sent = await t.api(token).user.POST("/api/v1/identity-verifications/request", { body: { phone } });
    expect(sent.response.status, JSON.stringify(sent.error ?? sent.data)).toBe(200);
    const verified = await t
      .api(token)
      .user.POST("/api/v1/identity-verifications/verify", { body: { phone, code: await codeIn(phone) } });
    expect(verified.response.status).toBe(200);
    expect(verified.data).toMatchObject({ value: phone, verified: true, userUuid: user.uuid });
    const row = await firstRow(t.db, schema.users, eq(schema.users.uuid, user.uuid));
    expect(row?.badges).toEqual(["IDENTITY_VERIFIED"]);

    const other = await t.createUser();
    const taken = await t.api(other.token).user.POST("/api/v1/identity-verifications/request", { body: { phone } });
    expect(taken.response.status).toBe(409);
    expect(await statusOf(t.api().user.POST("/api/v1/identity-verifications/request", { body: { phone } }))).toBe(401);
    const wrongCode = { body: { phone, code: "000000" } };
    expect(await statusOf(t.api(token).user.POST("/api/v1/identity-verifications/verify", wrongCode))).toBe(401);
  });

  it("users manage their own identities; services and admins anyone's", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const service = await t.serviceToken();
    const add = (body: { value: string; channel?: "sms"; verified?: boolean }) =>
      t.api(owner.token).user.POST("/api/v1/user-identities", { body });
    const mine = await add({ channel: "sms", value: "+447700900222" });
    expect(mine.response.status).toBe(201);
    expect(mine.data?.verified).toBe(false);
    await expectStatuses(add, [
      [{ value: "+447700900222" }, 409],
      [{ value: "+447700900333", verified: true }, 403],
      [{ value: "nope" }, 400],
    ]);

    const byService = await t.api(service).user.POST("/api/v1/user-identities", {
      body: { value: "+447700900333", userUuid: owner.user.uuid, verified: true },
    });
    expect(byService.data?.verified).toBe(true);
    const own = await t.api(owner.token).user.GET("/api/v1/user-identities");
    expect(own.data).toHaveLength(2);
    expect((await t.api(stranger.token).user.GET("/api/v1/user-identities")).data).toHaveLength(0);
    const ofOwner = { params: { query: { userUuid: owner.user.uuid } } };
    expect(await statusOf(t.api(stranger.token).user.GET("/api/v1/user-identities", ofOwner))).toBe(403);
    const verifiedOnly = await t.api(service).user.GET("/api/v1/user-identities", {
      params: { query: { userUuid: owner.user.uuid, verified: "true", channel: "sms" } },
    });
    expect(verifiedOnly.data?.map((i) => i.value)).toEqual(["+447700900333"]);

    const remove = (token: string) =>
      t.api(token).user.DELETE("/api/v1/user-identities/{id}", { params: { path: { id: ok(mine).id } } });
    await expectStatuses(remove, [
      [stranger.token, 403],
      [owner.token, 204],
      [owner.token, 404],
    ]);
    expect((await t.api().user.GET("/api/v1/user-identities")).response.status).toBe(401);
  });
});
