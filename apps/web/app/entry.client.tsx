/**
 * Remix's default browser entry, hydrating once the page's language is at hand: English comes with the app, another
 * language's texts are loaded first (i18n/index.ts), so the first render matches the server's.
 */
import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { isLanguage, loadLanguage } from "./i18n/index.ts";

const lang = document.documentElement.lang;
// A language that fails to load leaves the English fallback: the page still works.
void (isLanguage(lang) ? loadLanguage(lang) : Promise.resolve())
  .catch(() => undefined)
  .then(() =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <RemixBrowser />
        </StrictMode>,
      );
    }),
  );
