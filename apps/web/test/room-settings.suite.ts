/**
 * A room's settings in the browser, by rank: the owner changes everything (password included), a co-owner how the
 * room looks and plays, a moderator reads, anyone else is told whose they are; the edge's refusal of a co-owner whose
 * role was taken back is shown in its words. Entering a room with a password (and, for guests, a guest password):
 * a wrong one refused in the edge's words, the right one lets the person in; the owner is never asked.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { asAdmin, asUser, type SignedUp, signedUpAll } from "./harness-b.ts";

const stack = suiteStack();
let olga: SignedUp;
let carl: SignedUp;
let mia: SignedUp;
let sam: SignedUp;
let room: { uuid: string; slug: string };
type Call = Awaited<ReturnType<typeof asUser>>;
let asOlga: Call;

const roomNow = async () =>
  (await stack.t.request("GET", `/api/room-service/rooms/${room.slug}`)).body as Record<string, unknown>;

beforeAll(async () => {
  [olga, carl, mia, sam] = await signedUpAll(stack, "Olga", "Carl", "Mia", "Sam");
  asOlga = await asUser(stack, olga.uuid);
  const made = await asOlga("POST", "/api/room-service/rooms/infrastructure", { name: "Night Shift" });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  room = made.body as { uuid: string; slug: string };
  for (const [who, role] of [
    [carl, "coOwner"],
    [mia, "moderator"],
  ] as const) {
    const given = await asOlga("POST", `/api/room-service/roomUserRoles/${room.uuid}`, { userUuid: who.uuid, role });
    if (given.status >= 300) throw new Error(JSON.stringify(given.body));
  }
}, 300_000);

describe("room settings", { timeout: 180_000 }, () => {
  it("lets the owner change how the room looks, plays and who may enter", async () => {
    const { page, errors } = olga;
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    await Promise.all([page.waitForURL(/\/settings$/), page.click("[data-testid=room-settings-link]")]);
    await page.fill("#name", "Night Shift Radio");
    await page.fill("#description", "Slow techno until sunrise.");
    await page.click("label:has(input[value=UNDERGROUND])");
    await page.fill("#numberOfDjs", "3");
    await page.selectOption("#djType", "VERIFIED_ONLY");
    await page.fill("#songsPerDj", "2");
    await page.fill("#voteSkipPercent", "50");
    await page.fill("#idleDjMinutes", "15");
    await page.check("input[name=waitlistEnabled]");
    await page.fill("#password", "open sesame");
    await shot(page, "room-settings", { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "room-settings-phone", { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });
    await Promise.all([page.waitForURL(/\/settings\?saved=1$/), page.click("[data-testid=save-settings]")]);
    await expectText(page, "[data-testid=form-notice]", /Settings saved/);
    await expectText(page, "[data-testid=password-state]", /People need the password to enter/);
    expect(await roomNow()).toMatchObject({
      name: "Night Shift Radio",
      description: "Slow techno until sunrise.",
      design: "UNDERGROUND",
      numberOfDjs: 3,
      djType: "VERIFIED_ONLY",
      songsPerDj: 2,
      voteSkipThreshold: 0.5,
      idleDjMinutes: 15,
      waitlistEnabled: true,
      isPasswordProtected: true,
    });
    // Back in the room (the owner is never asked for the password), under its new name.
    await Promise.all([page.waitForURL(new RegExp(`/rooms/${room.slug}$`)), page.click("[data-testid=back-to-room]")]);
    await expectText(page, "[data-testid=room] h1", "Night Shift Radio");
    await expectCount(page, "[data-testid=password-gate]", 0);
    expect(errors).toEqual([]);
  });

  it("gives a co-owner how the room plays but not who may enter, and shows the edge's refusal once that role is gone", async () => {
    const { page, errors } = carl;
    await page.goto(`/rooms/${room.slug}/settings`);
    await expectCount(page, "[data-testid=entry-owner-only]", 1);
    await expectCount(page, "#password", 0);
    await page.fill("#songsPerDj", "4");
    await Promise.all([page.waitForURL(/\?saved=1$/), page.click("[data-testid=save-settings]")]);
    expect(await roomNow()).toMatchObject({ songsPerDj: 4, numberOfDjs: 3, isPasswordProtected: true });

    // The owner takes the role back while Carl's page is open: the edge refuses, the page says so, nothing changes.
    const taken = await asOlga("DELETE", `/api/room-service/roomUserRoles/${room.uuid}`, {
      userUuid: carl.uuid,
      role: "coOwner",
    });
    expect(taken.status).toBeLessThan(300);
    await page.fill("#songsPerDj", "9");
    await page.click("[data-testid=save-settings]");
    await expectText(page, "[data-testid=form-error]", "You are not allowed to do that in this room.");
    expect(await roomNow()).toMatchObject({ songsPerDj: 4 });
    expect(errors).toEqual([]);
  });

  it("shows a moderator the settings without changing them, and tells anyone else whose they are", async () => {
    await mia.page.goto(`/rooms/${room.slug}/settings`);
    await expectCount(mia.page, "[data-testid=settings-read-only]", 1);
    await expectCount(mia.page, "[data-testid=save-settings]", 0);
    expect(await mia.page.locator("#name").isDisabled()).toBe(true);
    await sam.page.goto(`/rooms/${room.slug}/settings`);
    await expectText(sam.page, "[data-testid=settings-refused]", /Only the room's owner, co-owners and moderators/);
    await expectCount(sam.page, "#name", 0);
    expect(mia.errors).toEqual([]);
    expect(sam.errors).toEqual([]);
  });

  it("asks for the password before entering: a wrong one is refused in the edge's words, the right one lets in", async () => {
    const { page, errors } = sam;
    await page.goto(`/rooms/${room.slug}`);
    await expectCount(page, "[data-testid=password-gate]", 1);
    await page.fill("#room-password", "open says me");
    await page.click("[data-testid=enter-room]");
    await expectText(page, "[data-testid=form-error]", "Wrong room password.");
    await shot(page, "room-password");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "room-password-phone");
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.fill("#room-password", "open sesame");
    await page.click("[data-testid=enter-room]");
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    await expectCount(page, "[data-testid=password-gate]", 0);
    expect(errors).toEqual([]);
  });

  it("lets a guest in with the room's guest password", async () => {
    const admin = await asAdmin(stack);
    await admin("POST", "/api/room-service/rooms/admin/guest-password", {
      roomUuid: room.uuid,
      guestPassword: "guests welcome",
    });
    const guest = await stack.person();
    await guest.page.goto(`/rooms/${room.slug}`);
    await expectText(guest.page, "[data-testid=password-gate] h2", "This room has a guest password");
    await guest.page.fill("#room-password", "guests only");
    await guest.page.click("[data-testid=enter-room]");
    await expectText(guest.page, "[data-testid=form-error]", "Wrong room password.");
    await guest.page.fill("#room-password", "guests welcome");
    await guest.page.click("[data-testid=enter-room]");
    await expectText(guest.page, "[data-testid=connection]", /in the room/, 20_000);
    expect(guest.errors).toEqual([]);
  });
});
