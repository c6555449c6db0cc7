/**
 * People in the browser: blocking someone from their profile (asked first; it ends the follow between them, and the
 * edge refuses a new one in its words) and unblocking them; signing up with a voucher (a code the edge refuses
 * creates nothing; a good one, typed in any case, is redeemed by the new account); friends' activity on the rooms
 * page (which room a followed DJ is in, a link into it).
 */
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { changeAnswered, emailFor, expectCount, expectText, shot, suiteStack, until } from "./harness.ts";
import { asAdmin, asUser, type SignedUp, signedUpAll } from "./harness-b.ts";

const stack = suiteStack();
let ana: SignedUp;
let ben: SignedUp;
beforeAll(async () => {
  [ana, ben] = await signedUpAll(stack, "Ana", "Ben");
}, 300_000);

describe("people", { timeout: 180_000 }, () => {
  it("blocks a person from their profile, which ends their follow and refuses a new one, and unblocks them", async () => {
    const asBen = await asUser(stack, ben.uuid);
    const asAna = await asUser(stack, ana.uuid);
    expect((await asBen("POST", "/api/social-service/dj-fans", { djUuid: ana.uuid })).status).toBeLessThan(300);

    await ana.page.goto(`/users/${ben.uuid}`);
    await ana.page.click("[data-testid=block]");
    await expectText(ana.page, "[data-testid=block-controls] [role=alert]", /^Block Ben\?/);
    await shot(ana.page, "profile-block");
    await ana.page.setViewportSize({ width: 390, height: 844 });
    await shot(ana.page, "profile-block-phone", { fullPage: true });
    await ana.page.setViewportSize({ width: 1280, height: 860 });
    const blocked = changeAnswered(ana.page);
    await ana.page.click("[data-testid=confirm-block]");
    await blocked;
    await expectText(ana.page, "[data-testid=blocked-note]", "You blocked Ben.");
    await expectCount(ana.page, "[data-testid=follow]", 0);
    expect((await asAna("GET", `/api/social-service/blocked-users/${ben.uuid}`)).status).toBe(200);
    const fans = await stack.t.request("GET", `/api/social-service/dj-fans/count/${ana.uuid}`);
    expect(fans.body).toMatchObject({ fans: 0 });

    // Ben cannot follow her again: shown at once, then put back with the edge's words.
    await ben.page.goto(`/users/${ana.uuid}`);
    await ben.page.click("[data-testid=follow]");
    await expectText(ben.page, "[role=alert]", "You cannot follow this DJ.");
    await expectText(ben.page, "[data-testid=follow]", /Follow$/);

    const unblocked = changeAnswered(ana.page);
    await ana.page.click("[data-testid=unblock]");
    await unblocked;
    await expectCount(ana.page, "[data-testid=blocked-note]", 0);
    await expectCount(ana.page, "[data-testid=follow]", 1);
    expect((await asAna("GET", `/api/social-service/blocked-users/${ben.uuid}`)).status).toBe(404);
    expect(ana.errors).toEqual([]);
    expect(ben.errors).toEqual([]);
  });

  it("shows on the rooms page which room a followed DJ is in, and leads there", async () => {
    const asBen = await asUser(stack, ben.uuid);
    const asAna = await asUser(stack, ana.uuid);
    const made = await asBen("POST", "/api/room-service/rooms/infrastructure", { name: "Ben's Basement" });
    expect(made.status).toBe(201);
    const room = made.body as { slug: string };
    expect((await asAna("POST", "/api/social-service/dj-fans", { djUuid: ben.uuid })).status).toBeLessThan(300);
    await ana.page.goto("/");
    await expectCount(ana.page, "[data-testid=friend-activity]", 0);
    // Ben opens his room: the live room reports him present.
    await ben.page.goto(`/rooms/${room.slug}`);
    await expectText(ben.page, "[data-testid=connection]", /in the room/, 20_000);
    // The room tells the edge who is present after letting them in: the page Ana reloads asks the edge.
    await until(async () => {
      const rows = await stack.t.db
        .select()
        .from(schema.roomPresence)
        .where(eq(schema.roomPresence.userUuid, ben.uuid));
      return rows.length > 0;
    }, "Ben's presence reported to the edge");
    await ana.page.reload();
    await expectText(
      ana.page,
      `[data-testid=friend-activity][data-uuid="${ben.uuid}"]`,
      /Ben\s*DJ you follow\s*in Ben's Basement/,
    );
    await shot(ana.page, "rooms-friends");
    await ana.page.setViewportSize({ width: 390, height: 844 });
    await shot(ana.page, "rooms-friends-phone");
    await ana.page.setViewportSize({ width: 1280, height: 860 });
    await Promise.all([
      ana.page.waitForURL(new RegExp(`/rooms/${room.slug}$`)),
      ana.page.click("[data-testid=activity-room]"),
    ]);
    await expectText(ana.page, "[data-testid=connection]", /2 in the room/, 20_000);
    expect(ana.errors).toEqual([]);
    expect(ben.errors).toEqual([]);
  });

  it("signs up with a voucher: a wrong code creates nothing, a good one is redeemed by the new account", async () => {
    const admin = await asAdmin(stack);
    const [voucher] = (await admin("POST", "/api/user-service/vouchers", { count: 1, note: "launch party" })) as {
      id: string;
      code: string;
    }[];
    if (!voucher) throw new Error("no voucher");
    const { page, errors } = await stack.person();
    const email = emailFor("cleo");
    const accounts = () => stack.t.db.select().from(schema.users).where(eq(schema.users.email, email));

    await page.goto("/signup");
    await page.fill("#nickname", "Cleo");
    await page.fill("#email", email);
    await page.fill("#password", "correct horse battery");
    await page.fill("#voucherCode", "ABCD-EFGH-JKMN");
    await page.click("button[type=submit]");
    await expectText(page, "[data-testid=form-error]", "This voucher code is not valid.");
    expect(await accounts()).toEqual([]);
    // What was typed stays (but the password).
    expect(await page.inputValue("#voucherCode")).toBe("ABCD-EFGH-JKMN");
    await shot(page, "signup-voucher");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "signup-voucher-phone", { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });

    await page.fill("#password", "correct horse battery");
    await page.fill("#voucherCode", voucher.code.toLowerCase());
    await Promise.all([page.waitForURL(/\/verify-email/), page.click("button[type=submit]")]);
    const [user] = await accounts();
    expect(user).toBeTruthy();
    const [row] = await stack.t.db.select().from(schema.vouchers).where(eq(schema.vouchers.id, voucher.id));
    expect(row).toMatchObject({ status: "REDEEMED", redeemedBy: user?.uuid });
    expect(errors).toEqual([]);
  });
});
