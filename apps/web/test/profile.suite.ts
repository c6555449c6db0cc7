/**
 * Profiles in the browser: editing one's own (nickname, bio, colour, avatar), following another DJ (at once, and
 * kept), followers and following lists, a friend invitation accepted, unfollowing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { changeAnswered, expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { asAdmin, type SignedUp, signedUpAll } from "./harness-b.ts";

const stack = suiteStack();
let ana: SignedUp;
let ben: SignedUp;
beforeAll(async () => {
  const admin = await asAdmin(stack);
  await admin("POST", "/api/merch-service/avatars", { slug: "neon-cat", name: "Neon Cat" });
  await admin("POST", "/api/merch-service/avatars", { slug: "disco-owl", name: "Disco Owl" });
  [ana, ben] = await signedUpAll(stack, "Ana", "Ben");
}, 300_000);

describe("profile", { timeout: 180_000 }, () => {
  it("edits one's own profile: nickname, bio, colour and avatar", async () => {
    const { page, errors } = ana;
    await page.goto("/me");
    await page.waitForURL(new RegExp(`/users/${ana.uuid}`));
    await expectText(page, "[data-testid=profile-name]", "Ana");
    await page.click("[data-testid=edit-profile]");
    await page.waitForURL(/\/profile\/edit/);
    await page.fill("#nickname", "Ana Beats");
    await page.fill("#bio", "Ambient at dawn, synthwave at night.");
    await page.click("[title='#ec4899']");
    await expectCount(page, "[data-testid=avatar-choice]", 2);
    await page.click("[data-testid=avatar-choice]:has-text('Disco Owl')");
    await shot(page, "profile-edit");
    await Promise.all([page.waitForURL(new RegExp(`/users/${ana.uuid}$`)), page.click("[data-testid=save-profile]")]);
    await expectText(page, "[data-testid=profile-name]", "Ana Beats");
    await expectText(page, "[data-testid=profile-bio]", "Ambient at dawn, synthwave at night.");
    await expectText(page, "[data-testid=viewer] .viewer-name", "Ana Beats");
    const profile = await stack.t.request("GET", `/api/user-service/profile/${ana.uuid}`);
    expect(profile.body).toMatchObject({ nickname: "Ana Beats", color: "#ec4899", avatarId: "disco-owl" });

    // A nickname someone else has is refused with the edge's words.
    await page.goto("/profile/edit");
    await page.fill("#nickname", "Ben");
    await page.click("[data-testid=save-profile]");
    await expectText(page, "[data-testid=form-error]", "This nickname is already taken.");
    expect(errors).toEqual([]);
  });

  it("follows a DJ, lists followers and following, befriends and unfollows", async () => {
    // Ben finds Ana by her name.
    await ben.page.goto("/search?q=ana%20be");
    await expectCount(ben.page, "[data-testid=people-results] [data-testid=person]", 1);
    await Promise.all([
      ben.page.waitForURL(`**/users/${ana.uuid}`),
      ben.page.click("[data-testid=people-results] [data-testid=person] a"),
    ]);
    await expectText(ben.page, "[data-testid=profile-name]", "Ana Beats");
    await expectText(ben.page, "[data-testid=fans-count]", "0");
    // At once, before the edge answers (the follow is held on its way until the button shows it); then the count.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await ben.page.route(/\/users\/.+\.data/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await ben.page.click("[data-testid=follow]");
    await expectText(ben.page, "[data-testid=follow]", /Following/);
    expect(await ben.page.locator("[data-testid=fans-count]").textContent()).toBe("0");
    release();
    await expectText(ben.page, "[data-testid=fans-count]", "1");
    await ben.page.unroute(/\/users\/.+\.data/);
    await ben.page.reload();
    await expectText(ben.page, "[data-testid=follow]", /Following/);
    await expectText(ben.page, "[data-testid=people] [data-testid=person] strong", "Ben");

    // Shown at once; Ana looks only once the edge has answered.
    const invited = changeAnswered(ben.page);
    await ben.page.click("[data-testid=invite]");
    await expectText(ben.page, "[data-testid=invite]", "Invitation sent");
    await invited;
    await shot(ben.page, "profile");

    // Ana sees her follower and accepts the invitation.
    await ana.page.goto(`/users/${ana.uuid}?tab=friends`);
    await expectCount(ana.page, "[data-testid=invitations] [data-testid=person]", 1);
    await ana.page.click("[data-testid=accept-invitation]");
    await expectCount(ana.page, "[data-testid=invitations]", 0);
    await expectText(ana.page, "[data-testid=people] [data-testid=person] strong", "Ben");
    await ana.page.goto(`/users/${ben.uuid}?tab=following`);
    await expectText(ana.page, "[data-testid=people] [data-testid=person] strong", "Ana Beats");
    await shot(ana.page, "profile-other");

    await ben.page.goto(`/users/${ana.uuid}`);
    await ben.page.click("[data-testid=follow]");
    await expectText(ben.page, "[data-testid=follow]", /Follow$/);
    await expectText(ben.page, "[data-testid=fans-count]", "0");
    expect(ana.errors).toEqual([]);
    expect(ben.errors).toEqual([]);
  });
});
