import { createHash } from "node:crypto";
import { BRAND_NAMES } from "@booth/sdk/brand";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { webConfig } from "../../config.server.ts";
import { createI18n, isLanguage } from "../../i18n/index.ts";
import { languageOf } from "../../i18n/language.server.ts";
import { THEME_COLORS } from "../../lib/brand.ts";

/**
 * The page the service worker shows when a navigation fails without a connection (app/service-worker): cached at
 * install in every language (`/offline?lang=`), so it is a whole document on its own. No scripts, and nothing but its
 * own style sheet (allowed by its hash) and the inline logo: offline, nothing else would load. `?lang=` picks the
 * language without remembering it (the worker fetches each); without it the visitor's.
 */
const STYLE = `
html,body{margin:0;min-height:100vh;background:#0b0814;color:#ece8f6;color-scheme:dark;
font:15px/1.5 "Inter","Segoe UI",system-ui,-apple-system,sans-serif}
main{max-width:30rem;margin:0 auto;padding:18vh 1.5rem 2rem;text-align:center}
svg{width:72px;height:72px}
h1{font-size:1.6rem;margin:1rem 0 .5rem}
p{color:#9a90b8;margin:0 0 1.5rem}
a{display:inline-block;padding:.6rem 1.2rem;border-radius:999px;background:#7c3aed;color:#fff;font-weight:600;
text-decoration:none}
a:focus-visible{outline:3px solid #ec4899;outline-offset:3px}
`.trim();
const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

export function loader({ request }: LoaderFunctionArgs) {
  const asked = new URL(request.url).searchParams.get("lang");
  const lang = isLanguage(asked) ? asked : languageOf(request).lang;
  const t = createI18n(lang).getFixedT(lang, "pwa");
  const title = t("offline.title");
  const { brand } = webConfig();
  const html = `<!doctype html>${renderToStaticMarkup(
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLORS[brand]} />
        <title>{`${title} · ${BRAND_NAMES[brand]}`}</title>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the page's own constant style sheet, allowed by its hash */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main data-testid="offline-page">
          <svg viewBox="0 0 32 32" aria-hidden="true">
            <circle cx="16" cy="16" r="15" fill="#140f24" stroke="#a855f7" strokeWidth="2" />
            <circle cx="16" cy="16" r="6" fill="#ec4899" />
            <circle cx="16" cy="16" r="2" fill="#140f24" />
          </svg>
          <h1>{title}</h1>
          <p>{t("offline.body")}</p>
          {/* biome-ignore lint/a11y/useValidAnchor: an empty address is this address, the page that failed to load */}
          <a href="">{t("offline.retry")}</a>
        </main>
      </body>
    </html>,
  )}`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-language": lang,
      "cache-control": "no-cache",
      "content-security-policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      vary: "Cookie",
    },
  });
}
