/** Fans and following are shown 12 a page (spec 9); a profile is kept 5 minutes in the browser (its stale time). */
export const PEOPLE_PAGE = 12;
export const PROFILE_STALE_MS = 5 * 60_000;
export const PROFILE_TABS = ["followers", "following", "friends", "crates"] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];
