import Negotiator from "negotiator";
import { DEFAULT_LANGUAGE, isLanguage, LANG_COOKIE, LANGUAGES, type Language } from "./index.ts";

/**
 * The language of a page: `?lang=` first (and remembered), then the cookie a choice left, then the browser's
 * `Accept-Language` (a first visit reads in the person's language, weighed by its q-values), then English.
 */
export function languageOf(request: Request): { lang: Language; remember: boolean } {
  const asked = new URL(request.url).searchParams.get("lang");
  if (isLanguage(asked)) return { lang: asked, remember: true };
  const cookie = request.headers.get("cookie") ?? "";
  const kept = new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([a-z]{2})`).exec(cookie)?.[1];
  if (isLanguage(kept)) return { lang: kept, remember: false };
  const accept = request.headers.get("accept-language");
  const offered = accept ? new Negotiator({ headers: { "accept-language": accept } }).language([...LANGUAGES]) : null;
  return { lang: isLanguage(offered) ? offered : DEFAULT_LANGUAGE, remember: false };
}
