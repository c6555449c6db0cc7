/** Language switching: `?lang=es` turns the screens Spanish and is remembered on the next page; `?lang=en` back. */
import { describe, expect, it } from "vitest";
import { emailFor, expectText, shot, signUp, suiteStack } from "./harness.ts";

const stack = suiteStack({ songs: 4 });

describe("languages", { timeout: 120_000 }, () => {
  it("follows the browser's Accept-Language on a first visit, until the person picks a language", async () => {
    const { page, errors } = await stack.person({ locale: "es-MX" });
    await page.goto("/search");
    await expectText(page, "h1", "Buscar");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    // A choice in the header wins over the browser's wish, on this page and the next.
    await page.click(".lang-switch a[data-lang=en]");
    await expectText(page, "h1", "Search");
    await page.goto("/ranking");
    await expectText(page, "h1", "Season ranking");

    // A language Booth does not have falls back to English; a weighed list finds the one it has.
    const french = await stack.person({ locale: "fr-FR" });
    await french.page.goto("/search");
    await expectText(french.page, "h1", "Search");
    const weighed = await stack.person();
    await weighed.page.setExtraHTTPHeaders({ "accept-language": "fr-FR, es;q=0.8, en;q=0.5" });
    await weighed.page.goto("/ranking");
    await expectText(weighed.page, "h1", "Ranking de la temporada");
    expect([...errors, ...french.errors, ...weighed.errors]).toEqual([]);
  });

  it("switches to Spanish with ?lang=es, remembers it on the next page, and back to English", async () => {
    const { page, errors } = await stack.person();
    await page.goto("/search?lang=es");
    await expectText(page, "h1", "Buscar");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await expectText(page, "[data-testid=search-heading]", "El catálogo");
    await expectText(page, "[data-testid=search-total]", "4 canciones");
    await shot(page, "search-es");

    // The next page, without the parameter: still Spanish (the cookie). The shop is in the header's "More".
    await page.click(".nav-more > summary");
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

  it("shows the edge's refusals in the person's language: a taken nickname, a wrong password", async () => {
    const first = await stack.person();
    await signUp(first.page, { nickname: "rosa", email: emailFor("rosa") });

    const { page, errors } = await stack.person({ locale: "es-ES" });
    await page.goto("/signup");
    await expectText(page, "h1", "Únete a Booth");
    await page.fill("#nickname", "rosa");
    await page.fill("#email", emailFor("rosa2"));
    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    // The edge answers 409 NICKNAME_TAKEN ("This nickname is already taken."); the page words it in Spanish.
    await expectText(page, "[data-testid=form-error]", "Este apodo ya está en uso.");
    await shot(page, "signup-taken-es");

    await page.goto("/login");
    await page.fill("#email", emailFor("nadie"));
    await page.fill("#password", "wrong password");
    await page.click("form:has(#password) button[type=submit]");
    await expectText(page, "[data-testid=form-error]", "El correo o la contraseña no son correctos.");
    // The same refusal in English for a person who reads English.
    await page.click(".lang-switch a[data-lang=en]");
    await expectText(page, "h1", "Welcome back");
    await page.fill("#email", emailFor("nobody"));
    await page.fill("#password", "wrong password");
    await page.click("form:has(#password) button[type=submit]");
    await expectText(page, "[data-testid=form-error]", "Incorrect email or password.");
    expect([...errors, ...first.errors]).toEqual([]);
  });
});
