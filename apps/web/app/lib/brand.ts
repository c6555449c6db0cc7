import { BRAND_NAMES, type Brand, brandOffers, DEFAULT_BRAND } from "@booth/sdk/brand";

/**
 * This Booth's brand (BOOTH_BRAND, in the web's settings: config.server.ts), as the pages read it: the root loader's
 * `env.brand`. Its name (@booth/sdk/brand) is the header's, the pages' titles' and the manifest's; its colours are the
 * stylesheet's `[data-brand]` rules (styles/app.css); the sources it offers decide which connections and imports the
 * pages show (decision 0027).
 */

/** The colour of the browser's bar and of the installed app's splash: each brand's --bg (styles/app.css). */
export const THEME_COLORS: Record<Brand, string> = { streaming: "#0b0814", catalogue: "#07100f" };

/**
 * Whether the connected accounts screen offers an account: a music provider's only where the brand plays it (the
 * catalogue brand connects no Spotify, YouTube, SoundCloud or Apple Music); Discord, a way to sign in, everywhere.
 */
export const offersAccount = (brand: Brand, provider: string) => provider === "discord" || brandOffers(brand, provider);

/** A route match, as meta functions receive them (only what is read here). */
type Match = { id: string; data?: unknown };

/** The brand, from the root loader's data among a meta function's matches; the default brand before it is known. */
export const brandOf = (matches: readonly Match[]): Brand =>
  (matches.find((m) => m.id === "root")?.data as { env?: { brand?: Brand } } | undefined)?.env?.brand ?? DEFAULT_BRAND;

/** The brand's name ("Booth", "Booth Records"). */
export const brandName = (matches: readonly Match[]) => BRAND_NAMES[brandOf(matches)];

/** A page's title: the brand's name, then the page's ("Booth Records · Rooms"). */
export const brandTitle = (matches: readonly Match[], ...parts: string[]) => [brandName(matches), ...parts].join(" · ");
