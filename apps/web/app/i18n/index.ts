import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { auth } from "./auth.ts";
import { common } from "./common.ts";
import { communities } from "./communities.ts";
import { crates } from "./crates.ts";
import { errors } from "./errors.ts";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./languages.ts";
import { lists } from "./lists.ts";
import { messages } from "./messages.ts";
import { profile } from "./profile.ts";
import { pwa } from "./pwa.ts";
import { room } from "./room.ts";
import { rooms } from "./rooms.ts";
import { search } from "./search.ts";
import { shop } from "./shop.ts";
import { upload } from "./upload.ts";

export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./languages.ts";
export const LANG_COOKIE = "booth_lang";

/**
 * One file per screen area and language: `<area>.ts` holds the English texts (the keys, and the fallback), `es/<area>.ts`
 * the Spanish ones (`satisfies` keeps their keys the same as the English ones). A new area adds a file in each and one
 * line here and in es/index.ts.
 */
const NAMESPACES = {
  common,
  auth,
  rooms,
  room,
  lists,
  search,
  crates,
  upload,
  profile,
  shop,
  pwa,
  communities,
  messages,
  errors,
} as const;
type Catalogue = { [Namespace in keyof typeof NAMESPACES]: object };

/**
 * The languages at hand. English is always there; another language is loaded when a page is in it (entry.client.tsx
 * before hydrating, root.tsx's Layout on a switch), so a first visit carries one language's texts, not all.
 * The server has them all (entry.server.tsx).
 */
const catalogues: Partial<Record<Language, Catalogue>> = { en: NAMESPACES };
const loaders: Record<Exclude<Language, "en">, () => Promise<Catalogue>> = {
  // A plain copy of the module's exports (a module namespace object cannot be written to).
  es: () => import("./es/index.ts").then((m) => ({ ...m })),
};

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** Whether a language's texts are at hand. */
export const isLoaded = (lang: Language) => lang === "en" || catalogues[lang] !== undefined;

/** Makes a language's texts available (already there: at once). */
export async function loadLanguage(lang: Language) {
  if (catalogues[lang] || lang === "en") return;
  catalogues[lang] = await loaders[lang]();
}

/** Gives an i18next instance a language's texts loaded after it was made; its components render again in them. */
export function addTexts(instance: i18n, lang: Language) {
  const texts = catalogues[lang];
  if (!texts) return;
  for (const [ns, bundle] of Object.entries(texts)) instance.addResourceBundle(lang, ns, bundle, true, true);
  void instance.changeLanguage(lang);
}

/** The texts of a language loaded by other means (the server's, which imports them all). */
export function addLanguage(lang: Language, catalogue: Catalogue) {
  catalogues[lang] = catalogue;
}

/** A ready i18next instance for one language; made the same way on the server and in the browser. */
export function createI18n(lang: Language): i18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(Object.entries(catalogues).map(([l, texts]) => [l, texts]));
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    resources,
    ns: Object.keys(NAMESPACES),
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
    showSupportNotice: false,
  });
  return instance;
}

export const languageCookie = (lang: Language) => `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
