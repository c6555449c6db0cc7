/**
 * The sign-in screens in a real browser: sign-up with email verification, log out and in, the emailed sign-in link,
 * a password reset, phone sign-in's refusal of a VoIP number and its code, guests browsing, and the language switch.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { openDemo } from "../../edge/src/bootstrap.ts";
import { outboxMailer } from "../../edge/src/ports/messaging.ts";
import {
  emailFor,
  eventually,
  expectCount,
  expectText,
  shot,
  signUp,
  suiteStack,
  TEST_PASSWORD,
  until,
  verifyEmail,
} from "./harness.ts";

const stack = suiteStack();
beforeAll(async () => {}, 240_000);

const linkIn = (text: string | null, path: string) => {
  const match = new RegExp(`https?://\\S+${path}\\?token=[\\w-]+`).exec(text ?? "");
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return new URL(match[0]);
};

/** Types `value` into the form's field `selector` and sends the form. */
async function send(page: Page, selector: string, value: string) {
  await page.fill(selector, value);
  await page.click("button[type=submit]");
}

describe("signing in", { timeout: 120_000 }, () => {
  it("signs up, verifies the email, logs out and in again", async () => {
    const { page, errors } = await stack.person();
    const email = emailFor("ana");
    await page.goto("/");
    await shot(page, "rooms-guest");
    await signUp(page, { nickname: "Ana", email });
    await expectText(page, "h1", "Verify your email");
    await shot(page, "verify-email");

    // A wrong code is refused with the edge's message.
    await page.fill("#code", "000000");
    await page.click("form:has(#code) button[type=submit]");
    await expectText(page, "[data-testid=form-error]", "Email verification failed, incorrect code.");

    await verifyEmail(stack, page, email);
    await expectText(page, "[data-testid=viewer]", /Ana/);
    await expectCount(page, ".banner", 0);

    await page.click("text=Log out");
    await expectText(page, "header a[href='/login']", "Log in");
    await page.goto("/login");
    await page.fill("#email", email);
    await page.fill("#password", "wrong password");
    await page.click("form:has(#password) button[type=submit]");
    await expectText(page, "[data-testid=form-error]", "Incorrect email or password.");
    await shot(page, "login");
    await page.fill("#password", TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${stack.webUrl}/`), page.click("form:has(#password) button[type=submit]")]);
    await expectText(page, "[data-testid=viewer]", /Ana/);
    expect(errors).toEqual([]);
  });

  it("opens the sign-in screen without loading any script, and signs in there all the same, back to where they were", async () => {
    const { page, errors } = await stack.person();
    const email = emailFor("noscript");
    await signUp(page, { nickname: "Nell", email });
    await page.click("text=Log out");
    await expectText(page, "header a[href='/login']", "Log in");

    // Opened as a page: the document and its stylesheet, no JavaScript at all.
    const scripts = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((e) => e.name)
          .filter((url) => /\.m?js(\?|$)/.test(url)),
      );
    await page.goto("/login?next=/ranking");
    await expectText(page, "h1", "Welcome back");
    expect(await scripts()).toEqual([]);
    expect(await page.evaluate(() => "__remixRouter" in window)).toBe(false);
    // A refusal is the server's answer, a page in its own right, with the address typed kept.
    await page.fill("#email", email);
    await page.fill("#password", "wrong password");
    await Promise.all([page.waitForLoadState("load"), page.click("form:has(#password) button[type=submit]")]);
    await expectText(page, "[data-testid=form-error]", "Incorrect email or password.");
    expect(await page.inputValue("#email")).toBe(email);
    expect(await scripts()).toEqual([]);
    await page.fill("#password", TEST_PASSWORD);
    await Promise.all([page.waitForURL(/\/ranking$/), page.click("form:has(#password) button[type=submit]")]);
    await expectText(page, "[data-testid=viewer]", /Nell/);
    // The page signed in to is the app again, scripts and all.
    await page.waitForFunction(() => "__remixRouter" in window);

    // Reached by a link inside the running app, the same screen is rendered by it: the page stays.
    await page.click("text=Log out");
    await expectText(page, "header a[href='/login']", "Log in");
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    await Promise.all([page.waitForURL(/\/login$/), page.click("header a[href='/login']")]);
    await page.fill("#email", email);
    await page.fill("#password", TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${stack.webUrl}/`), page.click("form:has(#password) button[type=submit]")]);
    await expectText(page, "[data-testid=viewer]", /Nell/);
    expect(await page.evaluate(() => "stayed" in window)).toBe(true);
    expect(errors).toEqual([]);
  });

  it("signs in with an emailed link, and resets a forgotten password", async () => {
    const { page } = await stack.person();
    const email = emailFor("bo");
    await signUp(page, { nickname: "Bo", email });
    await page.click("text=Log out");

    await page.goto("/magic-link");
    await send(page, "#email", email);
    await expectText(
      page,
      "[data-testid=form-notice]",
      "If this email is registered, a sign-in link has been sent to it.",
    );
    const link = linkIn((await stack.lastMessage(email)).body, "/magic-link");
    await page.goto(link.pathname + link.search);
    await Promise.all([page.waitForURL(`${stack.webUrl}/`), page.click("button[type=submit]")]);
    await expectText(page, "[data-testid=viewer]", /Bo/);
    // The link works once.
    await page.click("text=Log out");
    await expectText(page, "header a[href='/login']", "Log in");
    await page.goto(link.pathname + link.search);
    await page.click("button[type=submit]");
    await expectText(page, "[data-testid=form-error]", "This sign-in link is invalid or has expired.");

    await page.goto("/forgot-password");
    await send(page, "#email", email);
    await expectText(page, "[data-testid=form-notice]", /a link to reset the password has been sent/);
    const reset = linkIn((await stack.lastMessage(email)).body, "/reset-password");
    await page.goto(reset.pathname + reset.search);
    await page.fill("#password", "a brand new password");
    await Promise.all([page.waitForURL(/\/login\?reset=done/), page.click("button[type=submit]")]);
    await page.fill("#email", email);
    await page.fill("#password", "a brand new password");
    await Promise.all([page.waitForURL(`${stack.webUrl}/`), page.click("form:has(#password) button[type=submit]")]);
    await expectText(page, "[data-testid=viewer]", /Bo/);
  });

  it("refuses a VoIP number with the spec's message and signs in a mobile number with its code", async () => {
    const { page } = await stack.person();
    await page.goto("/phone");
    // A US number in a VoIP range (libphonenumber's metadata).
    await send(page, "#phone", "+1 800 555 0199");
    await expectText(
      page,
      "[data-testid=form-error]",
      "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.",
    );
    await shot(page, "phone-refused");

    const mobile = "+34612345678";
    await send(page, "#phone", mobile);
    await expectText(page, "[data-testid=form-notice]", new RegExp(mobile.replace("+", "\\+")));
    const code = /\b(\d{6})\b/.exec((await stack.lastMessage(mobile)).body ?? "")?.[1];
    await page.fill("#code", code ?? "");
    await Promise.all([page.waitForURL(`${stack.webUrl}/`), page.click("button[type=submit]")]);
    await expectCount(page, "[data-testid=viewer]", 1);
  });

  it("tells a newcomer waiting for a code that it is in the server log, where the code works", async () => {
    const { page, errors } = await stack.person();
    const email = emailFor("cleo");
    await signUp(page, { nickname: "Cleo", email });
    await expectText(
      page,
      "[data-testid=unsent-notice]",
      "No email provider is configured: the code is in the server log.",
    );
    await shot(page, "verify-email-unsent");
    // The code as the edge printed it signs the newcomer's email off.
    const printed = await until(() => stack.edgeLog.find((block) => block.startsWith(`Email to ${email} `)), "the log");
    const code = /code is (\d{6})/.exec(printed ?? "")?.[1] ?? "";
    await page.fill("#code", code);
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/verify-email")),
      page.click("form:has(#code) button[type=submit]"),
    ]);
    await expectCount(page, ".banner", 0);
    await page.click("text=Log out");
    await expectText(page, "header a[href='/login']", "Log in");

    await page.goto("/magic-link");
    await send(page, "#email", email);
    await expectText(page, "[data-testid=form-notice]", /a sign-in link has been sent/);
    await expectText(
      page,
      "[data-testid=unsent-notice]",
      "No email provider is configured: the link is in the server log.",
    );
    await page.goto("/forgot-password?lang=es");
    await send(page, "#email", email);
    await expectText(
      page,
      "[data-testid=unsent-notice]",
      "No hay ningún proveedor de correo configurado: el enlace está en el registro del servidor.",
    );
    await page.goto("/phone?lang=en");
    await send(page, "#phone", "+34612345670");
    await expectText(
      page,
      "[data-testid=unsent-notice]",
      "No SMS or WhatsApp provider is configured: the code is in the server log.",
    );
    // A wrong code keeps the person on the code step, still told where the right one is.
    await send(page, "#code", "000000");
    await expectText(page, "[data-testid=form-error]", /./);
    await expectCount(page, "[data-testid=unsent-notice]", 1);
    expect(errors).toEqual([]);
  });

  it("points to the administrator when a production instance keeps codes in the outbox, and says nothing with a provider", async () => {
    const { t } = stack;
    const saved = t.deps.mailer;
    try {
      const { page } = await stack.person();
      t.deps.mailer = outboxMailer(t.db);
      await page.goto("/magic-link");
      await send(page, "#email", emailFor("dov"));
      await expectText(
        page,
        "[data-testid=unsent-notice]",
        "No email provider is configured: ask this site's administrator for the link.",
      );
      // A provider delivers to the person: no word about logs.
      t.deps.mailer = { kind: "resend", send: async () => {} };
      await page.goto("/magic-link");
      await send(page, "#email", emailFor("dov"));
      await expectText(page, "[data-testid=form-notice]", /a sign-in link has been sent/);
      await expectCount(page, "[data-testid=unsent-notice]", 0);
    } finally {
      t.deps.mailer = saved;
    }
  });

  it("switches to Spanish with ?lang= and remembers it", async () => {
    const { page } = await stack.person();
    await page.goto("/login?lang=es");
    await expectText(page, "h1", "Hola de nuevo");
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    await page.goto("/");
    await expectText(page, "h1", "Salas en vivo");
    await shot(page, "rooms-es");
    await page.click("[data-lang=en]");
    await expectText(page, "h1", "Live rooms");
    await page.goto("/signup");
    await expectText(page, "h1", "Join Booth");
  });

  it("takes clicks and focus while the page's data is still arriving, then hydrates without an error", async () => {
    const { page, errors } = await stack.person();
    // A slow network's tail, made certain: the page's streamed loader data (single fetch's inline scripts) reaches
    // the page's stream 1.5 s late, while the entry script may already run. The page hydrates once the data is decoded
    // (entry.client.tsx: Remix's first render then never suspends, which React 18 cannot always take while input forces
    // it to hydrate at once); a person's clicks and typing meanwhile break nothing.
    await page.addInitScript(() => {
      let context: Record<string, unknown> | undefined;
      Object.defineProperty(window, "__remixContext", {
        configurable: true,
        get: () => context,
        set(value: Record<string, unknown>) {
          context = value;
          let controller: unknown;
          Object.defineProperty(value, "streamController", {
            configurable: true,
            get: () => controller,
            set(real: ReadableStreamDefaultController) {
              const late =
                <A extends unknown[]>(f: (...args: A) => void) =>
                (...args: A) =>
                  setTimeout(() => f(...args), 1500);
              controller = { enqueue: late(real.enqueue.bind(real)), close: late(real.close.bind(real)) };
            },
          });
        },
      });
    });
    await page.goto("/search", { waitUntil: "commit" });
    await page.waitForSelector("[data-testid=search-input]");
    const hydrated = () => page.evaluate(() => "__remixRouter" in window);
    expect(await hydrated()).toBe(false);
    await page.click("[data-testid=search-input]");
    await page.keyboard.type("early");
    await page.mouse.click(5, 400);
    await eventually(async () => expect(await hydrated()).toBe(true), 20_000);
    // A hydrated page: the header's link navigates in the page.
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    await Promise.all([page.waitForURL(/\/signup$/), page.click("header a[href='/signup']")]);
    expect(await page.evaluate(() => "stayed" in window)).toBe(true);
    expect(errors).toEqual([]);
  });

  it("shows a guest on an empty home page the rooms that open meanwhile, without a reload", async () => {
    const { page, errors } = await stack.person();
    await page.goto("/");
    await expectCount(page, "section .empty", 1);
    // As on a fresh instance, where the demo rooms open seconds after the web answers.
    const owner = await stack.t.createUser({ nickname: "Opener" });
    const made = await stack.t.request("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: "Just Opened" },
    });
    expect(made.status).toBe(201);
    await expectCount(page, `[data-testid=room-card][data-slug="${made.body.slug}"]`, 1, 10_000);
    expect(errors).toEqual([]);
  });

  it("shows the demo songs loading on the home page, with their progress, until they are loaded", async () => {
    const { page, errors } = await stack.person();
    await page.goto("/");
    await expectCount(page, "[data-testid=demo-loading]", 0);
    // A fresh instance's demo: its rooms open first, then its songs load one by one.
    await openDemo(stack.t.deps, () => {}, {
      perArtist: 1,
      seconds: 2,
      // One track at a time: the second finishes only once the first one's look at the page is over, so what the
      // page shows next is the second's progress, however busy the machine.
      concurrency: 1,
      progress: async (done, total) => {
        if (done === 1) {
          await page.goto("/");
          await expectText(page, "[data-testid=demo-loading] p", `Loading the demo songs: 1 of ${total}`);
          await shot(page, "rooms-demo-loading");
        }
        // The page follows the loading without a reload.
        if (done === 2) await expectText(page, "[data-testid=demo-loading] p", `Loading the demo songs: 2 of ${total}`);
      },
    });
    await expectCount(page, "[data-testid=demo-loading]", 0);
    await expectCount(page, '[data-testid=room-list] [data-testid=room-card][data-slug="booth-lounge"]', 1);
    expect(errors).toEqual([]);
  });
});
