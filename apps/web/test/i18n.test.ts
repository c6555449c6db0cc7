/** Language switching: `?lang=es` turns the screens Spanish and is remembered on the next page; `?lang=en` back. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectText, type Stack, shot } from "./harness.ts";
import { startStack } from "./harness-b.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ songs: 4 });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 60_000);

describe("languages", { timeout: 120_000 }, () => {
  it("switches to Spanish with ?lang=es, remembers it on the next page, and back to English", async () => {
    const { page, errors } = await stack.person();
    await page.goto("/search?lang=es");
    await expectText(page, "h1", "Buscar");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await expectText(page, "[data-testid=search-heading]", "El catálogo");
    await expectText(page, "[data-testid=search-total]", "4 canciones");
    await shot(page, "search-es");

    // The next page, without the parameter: still Spanish (the cookie).
    await page.click(".main-nav a[href='/shop']");
    await page.waitForURL(/\/shop$/);
    await expectText(page, "h1", "Tienda de fichas");
    await page.goto("/ranking");
    await expectText(page, "h1", "Ranking de la temporada");

    // The switch in the header goes back to English, which is then remembered too.
    await page.click(".lang-switch a[data-lang=en]");
    await expectText(page, "h1", "Season ranking");
    await page.goto("/search");
    await expectText(page, "h1", "Search");

    // A page that came in English switches to Spanish in place: its texts are loaded with the switch.
    await page.click(".lang-switch a[data-lang=es]");
    await expectText(page, "h1", "Buscar");
    await expectText(page, "[data-testid=search-total]", "4 canciones");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    expect(errors).toEqual([]);
  });
});
