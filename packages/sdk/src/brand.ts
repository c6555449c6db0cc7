/**
 * Booth's two brands (the spec: "one plays from a licensed catalogue, the other from streaming-provider sources"),
 * as every side sees them: the edge refuses what its brand does not offer, the web shows its brand's name, colours
 * and sources. One module, so the sources a brand offers cannot drift between them (decision 0027).
 *
 * - `streaming` (the default): uploads and every provider: the streaming ones (YouTube, Spotify, SoundCloud, Apple
 *   Music, Audius), the licensed catalogue (7digital) where it is configured, and the other services whose links the
 *   catalogue knows (Deezer, Tidal, ...).
 * - `catalogue`: uploads and the licensed catalogue (7digital) only.
 *
 * A source is a key of a song's `musicProviders` (and the `musicProvider` of a song-data lookup). Runtime-neutral and
 * free of imports, so the web's pages take it without zod; BOOTH_BRAND's setting is `brandSetting` (./settings.ts).
 */
export const BRANDS = ["streaming", "catalogue"] as const;
export type Brand = (typeof BRANDS)[number];
export const DEFAULT_BRAND: Brand = "streaming";

/** Every source a song's provider ids may name: those not in a brand's list are what that brand does not offer. */
export const SOURCES = [
  "uploadService",
  "sevenDigital",
  "spotify",
  "apple",
  "youtube",
  "soundcloud",
  "soundCloudPublic",
  "audius",
  "deezer",
  "tidal",
  "napster",
  "amazonMusic",
  "pandora",
  "yandex",
  "spinrilla",
] as const;
export type Source = (typeof SOURCES)[number];

/** The sources each brand offers, in its preference order. */
const BRAND_SOURCES: Record<Brand, readonly Source[]> = {
  streaming: [
    "uploadService",
    "youtube",
    "spotify",
    "soundcloud",
    "soundCloudPublic",
    "apple",
    "audius",
    "sevenDigital",
    "deezer",
    "tidal",
    "napster",
    "amazonMusic",
    "pandora",
    "yandex",
    "spinrilla",
  ],
  catalogue: ["uploadService", "sevenDigital"],
};

/** The sources a brand offers. */
export const brandSources = (brand: Brand): readonly Source[] => BRAND_SOURCES[brand];

/** Whether a brand offers a source (a provider's name, as song data and `musicProviders` name it). */
export const brandOffers = (brand: Brand, source: string): boolean =>
  (BRAND_SOURCES[brand] as readonly string[]).includes(source);

const isSource = (key: string): key is Source => (SOURCES as readonly string[]).includes(key);

/**
 * Whether a brand offers a catalogue song: one of its sources is the brand's. Keys that are no source (an analysis
 * id, `cyanite`) do not count; a song with no source at all is not refused for one (Booth makes none such).
 */
export function brandOffersSong(brand: Brand, musicProviders: Readonly<Record<string, string>>): boolean {
  const sources = Object.keys(musicProviders).filter(isSource);
  return sources.length === 0 || sources.some((source) => brandOffers(brand, source));
}

/** A source's name as people read it. */
export const SOURCE_NAMES: Record<Source, string> = {
  uploadService: "Uploaded",
  sevenDigital: "7digital",
  spotify: "Spotify",
  apple: "Apple Music",
  youtube: "YouTube",
  soundcloud: "SoundCloud",
  soundCloudPublic: "SoundCloud",
  audius: "Audius",
  deezer: "Deezer",
  tidal: "Tidal",
  napster: "Napster",
  amazonMusic: "Amazon Music",
  pandora: "Pandora",
  yandex: "Yandex Music",
  spinrilla: "Spinrilla",
};
export const sourceName = (source: string) => (isSource(source) ? SOURCE_NAMES[source] : source);

/** What each brand plays, in the words of its refusals. */
const PLAYS: Record<Brand, string> = {
  streaming: "uploads and streaming providers",
  catalogue: "uploads and the licensed catalogue",
};

/**
 * The refusal of a source the brand does not offer, e.g. "This Booth plays uploads and the licensed catalogue only:
 * Spotify links are not offered." (`what`: links, songs, playlists, exports).
 */
export const notOffered = (brand: Brand, source: string, what: "links" | "songs" | "playlists" | "exports") =>
  `This Booth plays ${PLAYS[brand]} only: ${sourceName(source)} ${what} are not offered.`;

/** Each brand's name, as the web app, its manifest and its pages' titles show it. */
export const BRAND_NAMES: Record<Brand, string> = { streaming: "Booth", catalogue: "Booth Records" };
