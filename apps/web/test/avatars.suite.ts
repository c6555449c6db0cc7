/**
 * Avatars in the browser: the avatars a person owns and those they can unlock (a season's points, a subscription),
 * choosing one, its picture wherever the person appears (header, profile, ranking), and the edge's refusal of one
 * taken back meanwhile shown in its words.
 */
import { multipart, ok } from "@booth/edge/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { asAdmin, type SignedUp, signedUp } from "./harness-b.ts";
import { discPng } from "./images.ts";

const stack = suiteStack();
let ana: SignedUp;
let admin: Awaited<ReturnType<typeof asAdmin>>;
let goldenAssignment: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  admin = await asAdmin(stack);
  const staff = await stack.t.createUser({ roles: ["admin"] });
  for (const [name, rgb] of [
    ["cat", [249, 115, 22]],
    ["gold", [234, 179, 8]],
    ["fox", [14, 165, 233]],
    ["crown", [168, 85, 247]],
  ] as const) {
    const form = new FormData();
    form.set("file", new File([discPng([...rgb])], `${name}.png`, { type: "image/png" }));
    files[name] = ok(await stack.t.api(staff.token).merch.POST("/files", multipart(form))).url;
  }
  const now = Date.now();
  const season = (await admin("POST", "/api/merch-service/points/season", {
    name: "Spring Season",
    start: new Date(now - 7 * 86_400_000).toISOString(),
    end: new Date(now + 30 * 86_400_000).toISOString(),
  })) as { id: string };
  for (const avatar of [
    { slug: "neon-cat", name: "Neon Cat", fileId: files.cat },
    { slug: "disco-owl", name: "Disco Owl" },
    { slug: "golden-cat", name: "Golden Cat", avatarStatus: "PRIVATE", fileId: files.gold },
    { slug: "vip-fox", name: "VIP Fox", avatarStatus: "SUBSCRIBER_ONLY", fileId: files.fox },
    {
      slug: "spring-crown",
      name: "Spring Crown",
      avatarStatus: "SEASON_AWARD",
      seasonId: season.id,
      minPoints: 100,
      fileId: files.crown,
    },
  ])
    await admin("POST", "/api/merch-service/avatars", {
      ...avatar,
      fileId: avatar.fileId?.split("/").pop(),
    });
  ana = await signedUp(stack, "Ana");
  const given = (await admin("POST", "/api/merch-service/avatar-assignment/golden-cat", { userUuid: ana.uuid })) as {
    id: string;
  };
  goldenAssignment = given.id;
  const res = await stack.t.request("POST", "/api/merch-service/points/service", {
    token: await stack.t.serviceToken(),
    body: { userUuid: ana.uuid, points: 40 },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
}, 300_000);

describe("avatars", { timeout: 180_000 }, () => {
  it("lists the avatars one owns and how to unlock the others, and wears one: its picture shows everywhere", async () => {
    const { page, errors } = ana;
    await page.goto("/me");
    await page.waitForURL(new RegExp(`/users/${ana.uuid}`));
    await Promise.all([page.waitForURL(/\/avatars$/), page.click("[data-testid=avatars-link]")]);
    // Public ones and the one given to her; the season's award and the subscribers' one are locked.
    await expectCount(page, "[data-testid=owned-avatars] [data-testid=avatar]", 3);
    await expectCount(page, "[data-testid=locked-avatars] [data-testid=avatar]", 2);
    await expectText(
      page,
      "[data-testid=locked-avatars] [data-slug=spring-crown] [data-testid=unlock]",
      /Reach 100 points in Spring Season\.\s+You have 40 of 100\./,
    );
    await expectText(
      page,
      "[data-testid=locked-avatars] [data-slug=vip-fox] [data-testid=unlock]",
      "Comes with a subscription.",
    );
    // Her initials until she wears one with a picture.
    await expectCount(page, "[data-testid=viewer] img", 0);

    await page.click("[data-slug=golden-cat] [data-testid=wear]");
    await expectCount(page, "[data-slug=golden-cat] [data-testid=wearing]", 1);
    await expectCount(page, "[data-testid=wearing]", 1);
    const picture = `${stack.edgeUrl}${files.gold}`;
    await expect.poll(() => page.locator("[data-testid=viewer] img.avatar-picture").getAttribute("src")).toBe(picture);
    const profile = await stack.t.request("GET", `/api/user-service/profile/${ana.uuid}`);
    expect(profile.body).toMatchObject({ avatarId: "golden-cat" });
    await shot(page, "avatars");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "avatars-phone");
    await page.setViewportSize({ width: 1280, height: 860 });

    // Others see the picture on her profile and in the ranking; the picture is the edge's file.
    const ben = await stack.person();
    await ben.page.goto(`/users/${ana.uuid}`);
    await expect.poll(() => ben.page.locator(`img[src$='${files.gold}']`).count()).toBeGreaterThan(0);
    await ben.page.goto("/ranking");
    await expect
      .poll(() => ben.page.locator("[data-testid=ranking-row] img.avatar-picture").first().getAttribute("src"))
      .toBe(picture);
    const image = await fetch(picture);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(errors).toEqual([]);
    expect(ben.errors).toEqual([]);
  });

  it("shows the edge's refusal of an avatar taken back since the page was loaded, and keeps the one worn", async () => {
    const { page, errors } = ana;
    await page.goto("/avatars");
    await page.click("[data-slug=neon-cat] [data-testid=wear]");
    await expectCount(page, "[data-slug=neon-cat] [data-testid=wearing]", 1);
    await admin("DELETE", `/api/merch-service/avatar-assignment/${goldenAssignment}`);
    await page.click("[data-slug=golden-cat] [data-testid=wear]");
    await expectText(page, "[data-testid=form-error]", "You have not unlocked this avatar.");
    // The page reloaded its lists: the golden cat is no longer hers, the neon cat is still worn.
    await expectCount(page, "[data-testid=owned-avatars] [data-slug=golden-cat]", 0);
    await expectCount(page, "[data-slug=neon-cat] [data-testid=wearing]", 1);
    const profile = await stack.t.request("GET", `/api/user-service/profile/${ana.uuid}`);
    expect(profile.body).toMatchObject({ avatarId: "neon-cat" });
    expect(errors).toEqual([]);
  });
});
