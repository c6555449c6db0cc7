import { type Brand, brandOffers, DEFAULT_BRAND, SOURCES } from "@booth/sdk/brand";
import type { LiveSong } from "@booth/sdk/live";
import { sourceOf } from "./player.ts";

/**
 * The ways a song can play here, one per player: the platform's HLS or a full file on the page's audio element (an
 * upload's, or an Audius track's full-length stream, which the catalogue keeps as the song's `streamUrls.http`), a
 * provider's own player (YouTube's IFrame Player, SoundCloud's widget, Spotify's Web Playback SDK, Apple's MusicKit),
 * or a provider's short preview on the audio element.
 */
export type Source =
  | { kind: "hls"; url: string }
  | { kind: "file"; url: string }
  | { kind: "youtube"; videoId: string }
  | { kind: "soundcloud"; trackUrl: string }
  | { kind: "spotify"; trackId: string }
  | { kind: "apple"; songId: string }
  | { kind: "preview"; url: string };
export type SourceKind = Source["kind"];

/** Which provider accounts the listener has connected (Spotify's premium is the player's to find out). */
export interface Accounts {
  spotify: boolean;
  apple: boolean;
}
export const NO_ACCOUNTS: Accounts = { spotify: false, apple: false };

/**
 * A song's provider ids come from the catalogue, which also takes ids from imports: only ids of the shape each
 * provider uses are played, and the player builds every address itself, so no id becomes another URL or a script.
 */
const IDS = {
  youtube: /^[\w-]{11}$/,
  spotify: /^[A-Za-z0-9]{22}$/,
  apple: /^\d{1,20}$/,
  /** A track's number, or its path (artist/track) as SoundCloud's links name it. */
  soundcloud: /^(?:\d{1,20}|[\w-]{1,100}\/[\w-]{1,200})$/,
} as const;

function idOf(song: LiveSong, provider: keyof typeof IDS, ...aliases: string[]) {
  const ids = song.musicProviders ?? {};
  for (const key of [provider, ...aliases]) {
    const id = ids[key];
    if (id !== undefined && IDS[provider].test(id)) return id;
  }
  return null;
}

/**
 * The song's sources, the best first; the room's player takes the first and falls to the next when one cannot play
 * (a Spotify account without premium, a video the provider refuses to embed). The platform's own stream first (it is
 * the whole song, in the listener's quality), then a connected Spotify or Apple Music account (full songs for their
 * subscribers), then YouTube and SoundCloud (full for everyone), and last a provider's 30-second preview.
 */
export function sourcesOf(
  song: LiveSong,
  apiUrl: string,
  accounts: Accounts = NO_ACCOUNTS,
  brand: Brand = DEFAULT_BRAND,
): Source[] {
  const sources: Source[] = [];
  // A provider the brand does not offer (BOOTH_BRAND) is not played, whatever ids the song has.
  const providerId = (provider: keyof typeof IDS, ...aliases: string[]) =>
    brandOffers(brand, provider) ? idOf(song, provider, ...aliases) : null;
  const own = sourceOf({ ...song, previews: {} }, apiUrl);
  if (own) sources.push(own.provider === "hls" ? { kind: "hls", url: own.url } : { kind: "file", url: own.url });
  const spotify = providerId("spotify");
  if (spotify && accounts.spotify) sources.push({ kind: "spotify", trackId: spotify });
  const apple = providerId("apple");
  if (apple && accounts.apple) sources.push({ kind: "apple", songId: apple });
  const youtube = providerId("youtube");
  if (youtube) sources.push({ kind: "youtube", videoId: youtube });
  const soundcloud = providerId("soundcloud", "soundCloudPublic");
  if (soundcloud)
    sources.push({
      kind: "soundcloud",
      trackUrl: /^\d+$/.test(soundcloud)
        ? `https://api.soundcloud.com/tracks/${soundcloud}`
        : `https://soundcloud.com/${soundcloud}`,
    });
  // A preview of a source the brand does not offer is not played either (keys that name no source are kept).
  const previews = Object.fromEntries(
    Object.entries(song.previews ?? {}).filter(
      ([key]) => !(SOURCES as readonly string[]).includes(key) || brandOffers(brand, key),
    ),
  );
  const preview = sourceOf(
    { trackName: song.trackName, artistName: song.artistName, duration: song.duration, previews },
    apiUrl,
  );
  if (preview && /^https?:\/\//.test(preview.url)) sources.push({ kind: "preview", url: preview.url });
  return sources;
}

/** Whether a song could use a connected account of the listener's (so the player asks for one first). */
export const wantsAccounts = (song: LiveSong) => ({
  spotify: idOf(song, "spotify") !== null,
  apple: idOf(song, "apple") !== null,
});

/** A source played as a sample rather than the song: the now-playing view labels it "Preview". */
export const isPreview = (source: Source | null) => source?.kind === "preview";

/** The room's position matters to every source but a preview, which is a sample from somewhere in the song. */
export const followsRoom = (kind: SourceKind) => kind !== "preview";

/** The embedded providers' players seek coarsely; the audio element precisely (DRIFT_LIMIT in position.ts). */
export const isEmbedded = (kind: SourceKind) =>
  kind === "youtube" || kind === "soundcloud" || kind === "spotify" || kind === "apple";
