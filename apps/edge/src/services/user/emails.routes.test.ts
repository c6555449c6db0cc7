// Email address routes (served by email-addresses.routes.ts): the cases email-password.routes.test.ts leaves out,
// with database read-backs after every refusal.
import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expectRefusal, ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const codeIn = async (to: string) => (await t.lastMessage(to))?.body.match(/code is (\d{6})/)?.[1] ?? "";
const otherCode = (code: string) => (code === "000000" ? "111111" : "000000");
const rowsFor = (email: string) => t.db.select().from(schema.emails).where(eq(schema.emails.email, email));
const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;
/** The caller `token` adds `email` to their account (as a personal address unless `type` says otherwise). */
const addEmail = (token: string | undefined, email: string, type?: "work" | "payment") =>
  t.api(token).user.POST("/users/emails", { body: type ? { email, type } : { email } });
/** A new address of the user's, added and then deleted. */
async function deletedAddress(user: { token: string }, name: string) {
  const address = unique(name);
  const added = await addEmail(user.token, address);
  await t.api(user.token).user.DELETE("/users/emails/{id}", { params: { path: { id: ok(added).id } } });
  return address;
}

describe("GET /users/emails", () => {
  it("lists only the caller's live addresses, flagging the sign-in one", async () => {
    const me = await t.createUser();
    const other = await t.createUser();
    const spare = unique("spare");
    const gone = unique("gone");
    const added = await addEmail(me.token, spare, "work");
    const deleted = await addEmail(me.token, gone);
    await t.api(me.token).user.DELETE("/users/emails/{id}", { params: { path: { id: ok(deleted).id } } });
    await addEmail(other.token, unique("theirs"));

    const res = await t.api(me.token).user.GET("/users/emails");
    expect(res.response.status).toBe(200);
    const list = ok(res) as { id: string; email: string; isLoginEmail: boolean; status: string; type: string }[];
    expect(list.map((e) => e.email).sort()).toEqual([me.email, spare].sort());
    expect(list.find((e) => e.email === me.email)).toMatchObject({ isLoginEmail: true, status: "VERIFIED" });
    expect(list.find((e) => e.id === ok(added).id)).toMatchObject({
      isLoginEmail: false,
      status: "PENDING_VERIFICATION",
      type: "work",
    });
  });

  it("needs a user token", async () => {
    expect((await t.api().user.GET("/users/emails")).response.status).toBe(401);
    expect((await t.api("not-a-jwt").user.GET("/users/emails")).response.status).toBe(401);
    const service = await t.serviceToken();
    expect((await t.api(service).user.GET("/users/emails")).response.status).toBe(401);
  });
});

describe("POST /users/emails", () => {
  it("stores the address pending, normalised, and emails it a code that verifies it", async () => {
    const me = await t.createUser();
    const address = unique("Payment").toUpperCase();
    const res = await addEmail(me.token, address, "payment");
    expect(res.response.status).toBe(201);
    const stored = address.toLowerCase();
    expect(res.data).toMatchObject({
      email: stored,
      type: "payment",
      status: "PENDING_VERIFICATION",
      verifiedAt: null,
    });
    expect(res.data?.lastSentAt).toBe(t.clock.now().toISOString());
    const [row] = await rowsFor(stored);
    expect(row).toMatchObject({ userUuid: me.user.uuid, status: "PENDING_VERIFICATION", type: "payment" });
    const mail = await t.lastMessage(stored);
    expect(mail?.subject).toBe("Verify your email for Booth");
    expect(await codeIn(stored)).toMatch(/^\d{6}$/);
  });

  it("defaults the type to personal and accepts every documented type", async () => {
    const me = await t.createUser();
    const plain = await addEmail(me.token, unique("p"));
    expect(plain.data?.type).toBe("personal");
    for (const type of ["work", "payment", "spotify", "discord"]) {
      const res = await t.request("POST", `${P}/users/emails`, {
        token: me.token,
        body: { email: unique(type), type },
      });
      expect(res.status).toBe(201);
      expect(res.body.type).toBe(type);
    }
  });

  it("refuses an address live on any account, including a pending one and the caller's own sign-in email", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const pending = unique("pending");
    await addEmail(a.token, pending);
    for (const [token, email] of [
      [b.token, pending],
      [b.token, pending.toUpperCase()],
      [a.token, pending],
      [a.token, a.email],
      [b.token, a.email],
    ] as const) {
      const res = await addEmail(token, email);
      expectRefusal(res, 403, "This email is already registered.");
    }
    expect(await rowsFor(pending)).toHaveLength(1);
    expect(await rowsFor(a.email)).toHaveLength(1);
  });

  it("lets an address deleted by one account be added again", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const address = await deletedAddress(a, "moving");
    const again = await addEmail(b.token, address);
    expect(again.response.status).toBe(201);
    const rows = await rowsFor(address);
    expect(rows.map((r) => [r.userUuid, r.status]).sort()).toEqual(
      [
        [a.user.uuid, "DELETED"],
        [b.user.uuid, "PENDING_VERIFICATION"],
      ].sort(),
    );
  });

  it("refuses callers without a token and bad input, storing and sending nothing", async () => {
    const address = unique("nobody");
    expect((await addEmail(undefined, address)).response.status).toBe(401);
    const me = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { email: "not an email" },
      { email: address, type: "galaxy" },
      { email: 42 },
      { email: `${"a".repeat(250)}@example.com` },
    ]) {
      const res = await t.request("POST", `${P}/users/emails`, { token: me.token, body });
      expect(res.status).toBe(400);
      expect(Array.isArray(res.body.message)).toBe(true);
    }
    const notJson = await t.request("POST", `${P}/users/emails`, {
      token: me.token,
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    const noType = await t.request("POST", "/api/user-service/users/emails", {
      token: me.token,
      body: JSON.stringify({ email: address }),
    });
    expect(noType.status).toBeGreaterThanOrEqual(400);
    expect(noType.status).toBeLessThan(500);
    expect(await rowsFor(address)).toHaveLength(0);
    expect(await t.lastMessage(address)).toBeNull();
    const list = await t.api(me.token).user.GET("/users/emails");
    expect(list.data).toHaveLength(1);
  });
});

describe("DELETE /users/emails/{id}", () => {
  it("marks the caller's address DELETED", async () => {
    const me = await t.createUser();
    const address = unique("bye");
    const added = await addEmail(me.token, address);
    const res = await t.api(me.token).user.DELETE("/users/emails/{id}", { params: { path: { id: ok(added).id } } });
    expect(res.response.status).toBe(204);
    const [row] = await rowsFor(address);
    expect(row?.status).toBe("DELETED");
    const twice = await t.api(me.token).user.DELETE("/users/emails/{id}", { params: { path: { id: ok(added).id } } });
    expectRefusal(twice, 404, "Email not found.");
  });

  it("never deletes the sign-in email, nor someone else's address", async () => {
    const me = await t.createUser();
    const other = await t.createUser();
    const list = await t.api(me.token).user.GET("/users/emails");
    const login = ok(list)[0]!.id as string;
    const refused = await t.api(me.token).user.DELETE("/users/emails/{id}", { params: { path: { id: login } } });
    expectRefusal(refused, 400, "The sign-in email of an account cannot be deleted.");
    const foreign = await t.api(other.token).user.DELETE("/users/emails/{id}", { params: { path: { id: login } } });
    expectRefusal(foreign, 404, "Email not found.");
    const [row] = await rowsFor(me.email);
    expect(row?.status).toBe("VERIFIED");
  });

  it("refuses callers without a token and malformed ids", async () => {
    const me = await t.createUser();
    const [row] = await rowsFor(me.email);
    expect(
      (await t.api().user.DELETE("/users/emails/{id}", { params: { path: { id: row!.id } } })).response.status,
    ).toBe(401);
    expect(
      (await t.api(me.token).user.DELETE("/users/emails/{id}", { params: { path: { id: "123" } } })).response.status,
    ).toBe(400);
    const missing = await t
      .api(me.token)
      .user.DELETE("/users/emails/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expect(missing.response.status).toBe(404);
    expect((await rowsFor(me.email))[0]?.status).toBe("VERIFIED");
  });
});

describe("POST /users/emails/verify", () => {
  it("verifies an extra address without touching the account's verified mark", async () => {
    const me = await t.createUser({ verified: false });
    const address = unique("extra");
    await addEmail(me.token, address);
    t.clock.advance(5);
    const res = await t
      .api(me.token)
      .user.POST("/users/emails/verify", { body: { email: address, code: await codeIn(address) } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ email: address, status: "VERIFIED", verifiedAt: t.clock.now().toISOString() });
    expect((await rowsFor(address))[0]).toMatchObject({ status: "VERIFIED", verifiedAt: t.clock.now() });
    expect((await t.userRow(me.user.uuid))?.verifiedAt).toBeNull();
  });

  it("verifies the sign-in email and with it the account", async () => {
    const me = await t.createUser({ verified: false });
    t.clock.advance(61);
    await t.api(me.token).user.POST("/users/emails/verification-email", { body: { email: me.email } });
    const res = await t
      .api(me.token)
      .user.POST("/users/emails/verify", { body: { email: me.email.toUpperCase(), code: await codeIn(me.email) } });
    expect(res.response.status).toBe(200);
    expect(res.data?.isLoginEmail).toBe(true);
    expect((await t.userRow(me.user.uuid))?.verifiedAt).toEqual(t.clock.now());
    const session = await t.api(me.token).user.GET("/auth/session");
    expect(session.data?.user.verifiedAt).toBe(t.clock.now().toISOString());
  });

  it("refuses a wrong, expired or used code, changing nothing", async () => {
    const me = await t.createUser({ verified: false });
    const address = unique("careful");
    await addEmail(me.token, address);
    const code = await codeIn(address);
    const wrong = await t
      .api(me.token)
      .user.POST("/users/emails/verify", { body: { email: address, code: otherCode(code) } });
    expectRefusal(wrong, 403, "Email verification failed, incorrect code.");
    expect((await rowsFor(address))[0]?.status).toBe("PENDING_VERIFICATION");

    t.clock.advance(24 * 3600 + 1);
    const expired = await t.api(me.token).user.POST("/users/emails/verify", { body: { email: address, code } });
    expectRefusal(expired, 403, "Email verification failed, incorrect code.");
    expect((await rowsFor(address))[0]).toMatchObject({ status: "PENDING_VERIFICATION", verifiedAt: null });
  });

  it("burns a code after five wrong guesses", async () => {
    const me = await t.createUser();
    const address = unique("guessed");
    await addEmail(me.token, address);
    const code = await codeIn(address);
    for (let i = 0; i < 5; i++)
      await t.api(me.token).user.POST("/users/emails/verify", { body: { email: address, code: otherCode(code) } });
    const late = await t.api(me.token).user.POST("/users/emails/verify", { body: { email: address, code } });
    expectRefusal(late, 403, "Email verification failed, incorrect code.");
    expect((await rowsFor(address))[0]?.status).toBe("PENDING_VERIFICATION");
  });

  it("does not let another account use the code of an address it does not hold", async () => {
    const owner = await t.createUser();
    const intruder = await t.createUser();
    const address = unique("owned");
    await addEmail(owner.token, address);
    const res = await t
      .api(intruder.token)
      .user.POST("/users/emails/verify", { body: { email: address, code: await codeIn(address) } });
    expectRefusal(res, 404, "Email not found.");
    // The owner's code still works: the intruder's try did not use it up.
    const accepted = await t
      .api(owner.token)
      .user.POST("/users/emails/verify", { body: { email: address, code: await codeIn(address) } });
    expect(accepted.response.status).toBe(200);
  });

  it("refuses callers without a token and bad input", async () => {
    const me = await t.createUser({ verified: false });
    const code = "123456";
    expect((await t.api().user.POST("/users/emails/verify", { body: { email: me.email, code } })).response.status).toBe(
      401,
    );
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{ email: me.email }, { code }, { email: me.email, code: "12345a" }, { email: "x", code }]) {
      expect((await t.request("POST", `${P}/users/emails/verify`, { token: me.token, body })).status).toBe(400);
    }
    expect((await t.userRow(me.user.uuid))?.verifiedAt).toBeNull();
  });
});

describe("POST /users/confirm-email (deprecated)", () => {
  it("is marked deprecated in the OpenAPI document", async () => {
    const doc = await t.request("GET", `${P}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.paths["/users/confirm-email"].post.deprecated).toBe(true);
    expect(doc.body.paths["/users/emails/verify"].post.deprecated).toBeFalsy();
  });

  it("refuses a wrong code with the catalogue message, callers without a token and bad input", async () => {
    const me = await t.createUser({ verified: false });
    t.clock.advance(61);
    await t.api(me.token).user.POST("/users/emails/verification-email", { body: { email: me.email } });
    const code = await codeIn(me.email);
    expect((await t.api().user.POST("/users/confirm-email", { body: { email: me.email, code } })).response.status).toBe(
      401,
    );
    // Raw: input the typed client cannot send (it is wrong on purpose).
    const bad = await t.request("POST", "/api/user-service/users/confirm-email", {
      token: me.token,
      body: { email: me.email },
    });
    expect(bad.status).toBe(400);
    const wrong = await t
      .api(me.token)
      .user.POST("/users/confirm-email", { body: { email: me.email, code: otherCode(code) } });
    expectRefusal(wrong, 403, "Email verification failed, incorrect code.");
    expect((await t.userRow(me.user.uuid))?.verifiedAt).toBeNull();
    const accepted = await t.api(me.token).user.POST("/users/confirm-email", { body: { email: me.email, code } });
    expect(accepted.response.status).toBe(200);
    expect(accepted.data?.status).toBe("VERIFIED");
  });
});

describe("POST /users/emails/verification-email", () => {
  it("waits exactly the configured interval, and a new code replaces the old one", async () => {
    const me = await t.createUser();
    const address = unique("again");
    await addEmail(me.token, address);
    const first = await codeIn(address);
    t.clock.advance(t.deps.config.emailResendSeconds - 1);
    const early = await t.api(me.token).user.POST("/users/emails/verification-email", { body: { email: address } });
    expectRefusal(early, 403, "The minimum time has not yet elapsed since the last e-mail was sent.");
    t.clock.advance(1);
    const res = await t.api(me.token).user.POST("/users/emails/verification-email", { body: { email: address } });
    expect(res.response.status).toBe(204);
    expect((await rowsFor(address))[0]?.lastSentAt).toEqual(t.clock.now());
    const second = await codeIn(address);
    const open = await t.db
      .select()
      .from(schema.codes)
      .where(and(eq(schema.codes.purpose, "emailVerification"), eq(schema.codes.target, address)));
    expect(open.filter((c) => c.usedAt === null)).toHaveLength(1);
    if (first !== second) {
      const old = await t.api(me.token).user.POST("/users/emails/verify", { body: { email: address, code: first } });
      expect(old.response.status).toBe(403);
    }
    const accepted = await t
      .api(me.token)
      .user.POST("/users/emails/verify", { body: { email: address, code: second } });
    expect(accepted.response.status).toBe(200);
  });

  it("answers 404 for a deleted address or another account's", async () => {
    const me = await t.createUser();
    const other = await t.createUser();
    const address = await deletedAddress(me, "deleted");
    t.clock.advance(61);
    for (const [token, email] of [
      [me.token, address],
      [me.token, other.email],
    ] as const) {
      const res = await t.api(token).user.POST("/users/emails/verification-email", { body: { email } });
      expectRefusal(res, 404, "Email not found.");
    }
    expect(await t.lastMessage(other.email)).toBeNull();
  });

  it("refuses callers without a token and bad input, sending nothing", async () => {
    const me = await t.createUser({ verified: false });
    t.clock.advance(61);
    const none = await t.api().user.POST("/users/emails/verification-email", { body: { email: me.email } });
    expect(none.response.status).toBe(401);
    for (const body of [{}, { email: "nope" }]) {
      expect((await t.request("POST", `${P}/users/emails/verification-email`, { token: me.token, body })).status).toBe(
        400,
      );
    }
    expect(await t.lastMessage(me.email)).toBeNull();
  });
});
