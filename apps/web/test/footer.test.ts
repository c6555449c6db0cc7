/**
 * The app shell's footer names the Booth version the server runs, in the page's language, on every page: the sign-in
 * screens (sent without scripts) as well as the app's own pages. Against the built app, without a browser.
 */
import { BOOTH_VERSION } from "@booth/sdk/version";
import { beforeAll, describe, expect, it } from "vitest";
import { createWebHandler } from "../server.ts";
import { buildOnce } from "./harness.ts";

let handle: (request: Request) => Promise<Response>;
beforeAll(async () => {
  await buildOnce();
  handle = await createWebHandler();
}, 240_000);

/** The text of the footer's version, as the server rendered it for `path` (null when there is none). */
async function versionShown(path: string) {
  const res = await handle(new Request(`http://127.0.0.1:3000${path}`, { headers: { accept: "text/html" } }));
  const html = await res.text();
  const footer = html.match(/<footer class="site-footer">([\s\S]*?)<\/footer>/)?.[1] ?? "";
  return footer.match(/<span class="site-version" data-testid="booth-version">([^<]*)<\/span>/)?.[1] ?? null;
}

describe("the footer", () => {
  it("shows Booth's version in English and in Spanish, on a sign-in screen and on a page with the app's scripts", async () => {
    expect(await versionShown("/login")).toBe(`Version ${BOOTH_VERSION}`);
    expect(await versionShown("/login?lang=es")).toBe(`Versión ${BOOTH_VERSION}`);
    // An address that is no page is answered by the app's own page, scripts and all (hydrated with the same text).
    expect(await versionShown("/no-such-page")).toBe(`Version ${BOOTH_VERSION}`);
  });
});
