import { useMatches } from "@remix-run/react";

/**
 * A screen that is a plain form and works as HTML alone (the signed-out screens: log in, sign up, a forgotten
 * password...) is sent without the app's scripts when it is opened as a page: `export const handle = withoutScripts`.
 * Its form posts to the server, which answers with the next page (or this one with the error), as it does for a
 * browser without JavaScript; a first visit to it loads no JavaScript at all. Reached by a link inside the app, it is
 * rendered by the app that is already running, like any other screen. See decision 0012, "Pages without scripts".
 */
export const withoutScripts = { scripts: false } as const;

const refusesScripts = (handle: unknown) =>
  typeof handle === "object" && handle !== null && (handle as { scripts?: unknown }).scripts === false;

/**
 * Whether the document carries the app's scripts. In the browser the answer is always yes: the code running there
 * came with a page that had them, and a later screen without them must not take them out of that page.
 */
export function usePageScripts() {
  const matches = useMatches();
  if (typeof document !== "undefined") return true;
  return !matches.some((match) => refusesScripts(match.handle));
}
