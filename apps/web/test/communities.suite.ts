/**
 * Communities and events in the browser. An admin creates a community (run by Olga) and renames it; Ben joins it,
 * finds it among his communities and leaves it; Olga, who runs it, adds her room and removes a member, and once she
 * no longer runs it the edge's refusal is shown in its words; Ben never sees the controls. Olga schedules an event
 * in her room, edits and cancels it; Ben sees it, goes to its room, and cannot change it; a co-owner of the room
 * may, until that role is taken back, when the edge's refusal is shown.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectCount, expectText, type Person, shot, suiteStack } from "./harness.ts";
import { asAdmin, asUser, type SignedUp, signedUpAll } from "./harness-b.ts";

const stack = suiteStack();
let olga: SignedUp;
let ben: SignedUp;
let carl: SignedUp;
let ada: Person & { uuid: string };
let room: { uuid: string; slug: string };
let communityId = "";
type Call = Awaited<ReturnType<typeof asUser>>;
let asOlga: Call;

const SLUG = "techno-collective";
const community = async () =>
  (await stack.t.request("GET", `/api/room-service/communities/${SLUG}`)).body as Record<string, unknown>;

beforeAll(async () => {
  [olga, ben, carl] = await signedUpAll(stack, "Olga", "Ben", "Carl");
  // An admin of the platform, signed in through the login form.
  const admin = await stack.t.createUser({ roles: ["admin"], nickname: "Ada" });
  ada = { ...(await stack.person()), uuid: admin.user.uuid };
  await ada.page.goto("/login");
  await ada.page.fill("#email", admin.email);
  await ada.page.fill("#password", admin.password);
  await Promise.all([
    ada.page.waitForURL(`${stack.webUrl}/`),
    ada.page.click("form:has(#password) button[type=submit]"),
  ]);
  asOlga = await asUser(stack, olga.uuid);
  const made = await asOlga("POST", "/api/room-service/rooms/infrastructure", { name: "Night Shift" });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  room = made.body as { uuid: string; slug: string };
  const given = await asOlga("POST", `/api/room-service/roomUserRoles/${room.uuid}`, {
    userUuid: carl.uuid,
    role: "coOwner",
  });
  if (given.status >= 300) throw new Error(JSON.stringify(given.body));
}, 300_000);

describe("communities", { timeout: 180_000 }, () => {
  it("lets an admin create a community run by someone else, and rename it", async () => {
    const { page, errors } = ada;
    await page.goto("/communities");
    await expectCount(page, "[data-testid=all-communities]", 1);
    await page.fill("#community-name", "Techno Collective");
    await page.fill("#community-slug", SLUG);
    await page.fill("#community-description", "Warehouse sounds.");
    await page.fill("#community-created-by", olga.uuid);
    await Promise.all([
      page.waitForURL(new RegExp(`/communities/${SLUG}\\?created=1$`)),
      page.click("[data-testid=create-community-submit]"),
    ]);
    await expectText(page, "[data-testid=form-notice]", "Community created.");
    await page.fill("#community-name", "Techno Collective Berlin");
    await page.fill("#community-description", "Warehouse sounds, every weekend.");
    await page.click("[data-testid=save-community]");
    await expectText(page, "[data-testid=form-notice]", "Community saved.");
    await expectText(page, "[data-testid=community] h1", "Techno Collective Berlin");
    const now = await community();
    expect(now).toMatchObject({ name: "Techno Collective Berlin", createdBy: olga.uuid, isPublic: true });
    communityId = now.id as string;
    await page.goto("/communities");
    await expectText(page, "[data-testid=all-communities] li", /Techno Collective Berlin/);
    expect(errors).toEqual([]);
  });

  it("lets a person join and leave, without the controls of those who run it", async () => {
    const { page, errors } = ben;
    await page.goto("/communities");
    await expectCount(page, "[data-testid=no-communities]", 1);
    // Only admins create communities (and only staff list them all): not shown to Ben.
    await expectCount(page, "[data-testid=create-community]", 0);
    await expectCount(page, "[data-testid=all-communities]", 0);
    await page.goto(`/communities/${SLUG}`);
    await expectCount(page, "[data-testid=edit-community]", 0);
    await expectCount(page, "#community-name", 0);
    await page.click("[data-testid=join-community]");
    await expectText(page, "[data-testid=form-notice]", "You joined Techno Collective Berlin.");
    await expectText(page, "[data-testid=community-members]", /Ben/);
    await expectCount(page, "[data-testid=remove-member]", 0);
    await expectCount(page, "[data-testid=add-room]", 0);
    await page.click("header .nav-more > summary");
    await page.click("header a[href='/communities']");
    await expectText(page, "[data-testid=my-communities] li", /Techno Collective Berlin/);
    await shot(page, "communities");
    await page.click("[data-testid=my-communities] button");
    await expectText(page, "[data-testid=form-notice]", "You left Techno Collective Berlin.");
    await expectCount(page, "[data-testid=no-communities]", 1);
    expect(await community()).toMatchObject({ memberCount: 0 });
    expect(errors).toEqual([]);
  });

  it("lets whoever runs it add their room and remove a member, and shows the edge's refusal once they no longer do", async () => {
    expect((await (await asUser(stack, ben.uuid))("POST", `/api/room-service/communities/${SLUG}/join`)).status).toBe(
      200,
    );
    const { page, errors } = olga;
    await page.goto(`/communities/${SLUG}`);
    await expectCount(page, "[data-testid=runs-it]", 1);
    // Olga runs it but is not an admin of the platform: she does not rename it.
    await expectCount(page, "[data-testid=edit-community]", 0);
    await page.selectOption("#add-room", room.uuid);
    await page.click("[data-testid=add-room-submit]");
    await expectText(page, "[data-testid=form-notice]", "Room added.");
    await expectText(page, "[data-testid=community-rooms] a", "Night Shift");
    await shot(page, "community", { fullPage: true });
    await page.click("[data-testid=community-members] [data-testid=remove-member]");
    await expectText(page, "[data-testid=form-notice]", "Member removed.");
    await expectCount(page, "[data-testid=community-members] li", 0);

    // Ben joins again; an admin gives the community to someone else while Olga's page is open.
    expect((await (await asUser(stack, ben.uuid))("POST", `/api/room-service/communities/${SLUG}/join`)).status).toBe(
      200,
    );
    await page.reload();
    await expectCount(page, "[data-testid=community-members] [data-testid=remove-member]", 1);
    const admin = await asAdmin(stack);
    await admin("PATCH", `/api/room-service/admin/communities/${communityId}`, { createdBy: ada.uuid });
    await page.click("[data-testid=community-members] [data-testid=remove-member]");
    await expectText(page, "[data-testid=form-error]", "Only this community's admins may do that.");
    expect(await community()).toMatchObject({ memberCount: 1 });
    expect(errors).toEqual([]);
  });
});

describe("events", { timeout: 180_000 }, () => {
  it("lets a person schedule an event in their room and edit it; others see it and go to its room", async () => {
    const { page, errors } = olga;
    await page.goto("/events");
    await expectCount(page, "[data-testid=new-event] form[data-ready]", 1);
    await page.fill("#event-name", "Sunrise Set");
    await page.fill("#event-starts", "2030-07-01T22:00");
    await page.fill("#event-ends", "2030-07-02T04:00");
    await page.selectOption("#event-room", room.uuid);
    await page.fill("#event-description", "Slow techno until the sun comes up.");
    // An end before the start: the edge refuses in its words, nothing is made.
    await page.fill("#event-ends", "2030-07-01T21:00");
    await page.click("[data-testid=schedule-event]");
    await expectText(page, "[data-testid=form-error]", /must be after startsAt/);
    expect((await stack.t.request("GET", "/api/room-service/events/upcoming")).body).toMatchObject({ total: 0 });
    await page.fill("#event-ends", "2030-07-02T04:00");
    await Promise.all([
      page.waitForURL(/\/events\/sunrise-set\?scheduled=1$/),
      page.click("[data-testid=schedule-event]"),
    ]);
    await expectText(page, "[data-testid=form-notice]", "Event scheduled.");
    await expectText(page, "[data-testid=event] h1", "Sunrise Set");
    await expectCount(page, `[data-testid=event-room][href='/rooms/${room.slug}']`, 1);
    await expectCount(page, "[data-testid=edit-event] form[data-ready]", 1);
    await page.fill("#event-description", "Slow techno until the sun is up.");
    await page.click("[data-testid=save-event]");
    await expectText(page, "[data-testid=form-notice]", "Event saved.");
    await expectText(page, "[data-testid=event-description]", "Slow techno until the sun is up.");
    await shot(page, "event", { fullPage: true });
    const saved = (await stack.t.request("GET", "/api/room-service/events/slug/sunrise-set")).body;
    expect(saved).toMatchObject({
      name: "Sunrise Set",
      roomUuid: room.uuid,
      hostUuid: olga.uuid,
      startsAt: new Date(
        Date.UTC(2030, 6, 1, 22) + (await page.evaluate(() => new Date().getTimezoneOffset())) * 60_000,
      ).toISOString(),
    });
    expect(errors).toEqual([]);

    await ben.page.goto("/");
    await ben.page.click("header .nav-more > summary");
    await Promise.all([ben.page.waitForURL(/\/events$/), ben.page.click("header a[href='/events']")]);
    await expectText(ben.page, "[data-testid=event-list] li", /Sunrise Set/);
    await shot(ben.page, "events", { fullPage: true });
    await Promise.all([ben.page.waitForURL(/\/events\/sunrise-set$/), ben.page.click("text=Sunrise Set")]);
    await expectCount(ben.page, "[data-testid=edit-event]", 0);
    await expectCount(ben.page, "[data-testid=delete-event]", 0);
    await expectText(ben.page, "[data-testid=event]", /Hosted by Olga/);
    await Promise.all([
      ben.page.waitForURL(new RegExp(`/rooms/${room.slug}$`)),
      ben.page.click("[data-testid=event-room]"),
    ]);
    expect(ben.errors).toEqual([]);
  });

  it("lets a co-owner of its room edit it, and shows the edge's refusal once that role is taken back", async () => {
    const { page, errors } = carl;
    await page.goto("/events/sunrise-set");
    await expectCount(page, "[data-testid=edit-event] form[data-ready]", 1);
    const taken = await asOlga("DELETE", `/api/room-service/roomUserRoles/${room.uuid}`, {
      userUuid: carl.uuid,
      role: "coOwner",
    });
    expect(taken.status).toBeLessThan(300);
    await page.fill("#event-name", "Carl's Set");
    await page.click("[data-testid=save-event]");
    await expectText(
      page,
      "[data-testid=form-error]",
      "Only the event's host, the room's owners or staff may change this event.",
    );
    expect((await stack.t.request("GET", "/api/room-service/events/slug/sunrise-set")).body).toMatchObject({
      name: "Sunrise Set",
    });
    await page.reload();
    await expectCount(page, "[data-testid=edit-event]", 0);
    expect(errors).toEqual([]);
  });

  it("lets the host cancel the event, asked first", async () => {
    const { page, errors } = olga;
    await page.goto("/events/sunrise-set");
    await expectCount(page, "[data-testid=edit-event] form[data-ready]", 1);
    await page.click("[data-testid=delete-event]");
    await expectText(page, "[data-testid=confirm-delete] p", "Cancel “Sunrise Set”? It is removed for everyone.");
    await Promise.all([page.waitForURL(/\/events\?deleted=1$/), page.click("[data-testid=confirm-delete-event]")]);
    await expectText(page, "[data-testid=form-notice]", "Event cancelled.");
    await expectCount(page, "[data-testid=event-list] li", 0);
    expect((await stack.t.request("GET", "/api/room-service/events/slug/sunrise-set")).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
