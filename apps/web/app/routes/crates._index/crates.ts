/** Crates are listed 32 a page (spec 9) and kept for 60 s in the browser (the crate stale time). */
export const CRATE_PAGE = 32;
export const CRATE_STALE_MS = 60_000;
/** An import in progress is looked at again every 5 s (spec 4). */
export const IMPORT_POLL_MS = 5_000;
export const SPECIAL_CRATES = ["queue", "likes"] as const;
export type SpecialCrate = (typeof SPECIAL_CRATES)[number];
export const isSpecial = (id: string): id is SpecialCrate => (SPECIAL_CRATES as readonly string[]).includes(id);
/** A playlist import's progress line is read again every second until the import ends. */
export const PLAYLIST_IMPORT_POLL_MS = 1_000;
