/**
 * The page's side of the Discord Activity (docs/discord.md, decision 0028). The server writes the Activity's settings
 * in a meta tag when Discord frames the page (lib/discord-activity.server.ts); without it nothing here runs and the
 * SDK is never loaded (it is a chunk of its own, imported on demand: outside Discord the first visit's scripts are as
 * they were).
 *
 * `startActivity` runs before hydration (entry.client.tsx): it loads the SDK and maps every URL that leaves the frame
 * to Discord's proxy paths before any of the page's calls, then signs the person in with Discord, in the background.
 * `ActivityLanding` (in the root, Activity only) takes the person to the Activity's room once that is done.
 */
import { useNavigate, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";

export const ACTIVITY_META = "booth-discord-activity";

/**
 * An inline script for the Activity's pages, before any other: where the frame may not use the browser's storage (a
 * browser that blocks a third-party frame's storage throws on the mere read of `window.sessionStorage`), both
 * storages become this page's memory. Remix reads sessionStorage (its scroll restoration, and the routes it discovers
 * as the person navigates), and without it no page after the first would load.
 */
export const STORAGE_IN_MEMORY = `(function () {
  ["localStorage", "sessionStorage"].forEach(function (name) {
    try { if (window[name]) return; } catch (e) {}
    var kept = new Map();
    var storage = {
      get length() { return kept.size; },
      key: function (i) { var keys = Array.from(kept.keys()); return i < keys.length ? keys[i] : null; },
      getItem: function (k) { return kept.has(String(k)) ? kept.get(String(k)) : null; },
      setItem: function (k, v) { kept.set(String(k), String(v)); },
      removeItem: function (k) { kept.delete(String(k)); },
      clear: function () { kept.clear(); },
    };
    Object.defineProperty(window, name, { configurable: true, value: storage });
  });
})();`;

export interface ActivitySettings {
  clientId: string;
  mappings: { prefix: string; target: string }[];
}

export interface ActivityStart {
  /** The room of the Activity's voice channel (null outside a guild's channel). */
  room: { slug: string; name: string } | null;
}

let started: Promise<ActivityStart> | null = null;

/** The Activity's settings the server wrote, or null (not in Discord). */
export function activitySettingsOfPage(): ActivitySettings | null {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${ACTIVITY_META}"]`)?.content;
  if (!content) return null;
  try {
    return JSON.parse(content) as ActivitySettings;
  } catch {
    return null;
  }
}

/**
 * In the Activity: loads the SDK, maps the page's URLs to Discord's proxy and starts the sign-in (awaited by
 * `ActivityLanding`); resolves once the URLs are mapped. Outside the Activity: nothing.
 */
export async function startActivity(): Promise<void> {
  const settings = activitySettingsOfPage();
  if (!settings) return;
  document.documentElement.dataset.discordActivity = "starting";
  const activity = await import("./discord-activity.client.ts");
  started = activity.begin(settings);
  started.then(
    () => {
      document.documentElement.dataset.discordActivity = "ready";
    },
    (error: unknown) => {
      document.documentElement.dataset.discordActivity = "failed";
      console.error("The Discord Activity did not start:", error);
    },
  );
}

/** In the Activity's root: once signed in, to the Activity's room (or the same page, now signed in). */
export function ActivityLanding() {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [failure, setFailure] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page (the start is one); navigate and revalidate change with every navigation.
  useEffect(() => {
    if (!started) return;
    let live = true;
    started.then(
      ({ room }) => {
        if (!live) return;
        if (room) navigate(`/rooms/${room.slug}`);
        else revalidator.revalidate();
      },
      (error: unknown) => {
        if (live) setFailure(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return failure ? (
    <div className="banner" role="alert" data-testid="activity-failure">
      {failure}
    </div>
  ) : null;
}
