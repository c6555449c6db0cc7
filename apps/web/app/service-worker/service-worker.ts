/**
 * Booth's service worker, served as /sw.js (built from this file by vite.config.ts; registered by
 * app/lib/pwa/register.ts). It makes the app installable and does three things: a navigation that fails without a
 * connection shows the offline page (cached at install, in every language, shown in the person's); a push from the
 * edge (Web Push, the social service) shows a notification; clicking the notification opens what it names (a room).
 * Everything else reaches the network untouched: pages are never served stale from a cache.
 */
export type {};

declare const self: ServiceWorkerGlobalScope;
/** The app's languages, the first the default (app/i18n): written in at build. */
declare const BOOTH_LANGUAGES: readonly string[];

const CACHE = "booth-offline-v1";
const offlineAddress = (lang: string) => `/offline?lang=${lang}`;
const ICON = "/icons/icon-192.png";
const BADGE = "/icons/badge-96.png";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(BOOTH_LANGUAGES.map(offlineAddress));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      // The page asks the server while the worker starts, so a navigation waits for no worker.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

/** The person's language: the address's `?lang=`, else the one the app remembered (its cookie), else the browser's. */
async function languageFor(request: Request) {
  const known = (lang: string | null | undefined) => (lang && BOOTH_LANGUAGES.includes(lang) ? lang : null);
  const asked = known(new URL(request.url).searchParams.get("lang"));
  if (asked) return asked;
  // The Cookie Store API (Chromium); elsewhere the browser's languages decide.
  const store = (self as unknown as { cookieStore?: { get(name: string): Promise<{ value?: string } | null> } })
    .cookieStore;
  const kept = known((await store?.get("booth_lang").catch(() => null))?.value);
  if (kept) return kept;
  for (const tag of self.navigator.languages ?? []) {
    const lang = known(tag.slice(0, 2).toLowerCase());
    if (lang) return lang;
  }
  return BOOTH_LANGUAGES[0] ?? "en";
}

async function offlinePage(request: Request) {
  const cached =
    (await caches.match(offlineAddress(await languageFor(request)))) ??
    (await caches.match(offlineAddress(BOOTH_LANGUAGES[0] ?? "en")));
  return cached ?? Response.error();
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith(
    (async () => {
      try {
        return ((await event.preloadResponse) as Response | undefined) ?? (await fetch(request));
      } catch {
        return offlinePage(request);
      }
    })(),
  );
});

/** What the edge sends (apps/edge/src/ports/web-push.ts): title, body, and string data such as a DJ's room. */
interface Pushed {
  title?: string | null;
  body?: string | null;
  data?: Record<string, string>;
}

/**
 * The page a notification opens: a room by its slug, else the rooms. Only a path of this origin: whatever a push
 * carries, the slug is one path segment, encoded.
 */
function pathFor(data: Record<string, string>) {
  return typeof data.roomSlug === "string" && data.roomSlug ? `/rooms/${encodeURIComponent(data.roomSlug)}` : "/";
}

self.addEventListener("push", (event) => {
  let pushed: Pushed = {};
  try {
    pushed = (event.data?.json() as Pushed) ?? {};
  } catch {
    pushed = { body: event.data?.text() ?? null };
  }
  const data = pushed.data && typeof pushed.data === "object" ? pushed.data : {};
  const title = typeof pushed.title === "string" && pushed.title ? pushed.title : "Booth";
  const options: NotificationOptions = {
    body: typeof pushed.body === "string" ? pushed.body : "",
    icon: ICON,
    badge: BADGE,
    data: { path: pathFor(data) },
  };
  // A DJ's later sets replace the earlier notification rather than pile up.
  if (data.type === "djPlaying" && data.djUuid) options.tag = `dj-playing:${data.djUuid}`;
  // Browsers want every push to show something (userVisibleOnly): each one does.
  event.waitUntil(self.registration.showNotification(title, options));
});

/** Opens a path of this origin: a window already there is focused, another of ours moves there, else a new one. */
async function open(path: string) {
  const url = new URL(path, self.location.origin);
  const target = url.origin === self.location.origin ? url.href : self.location.origin;
  const windows = await self.clients.matchAll({ type: "window" });
  const there = windows.find((w) => w.url === target);
  // Focusing can be refused (the browser decides when a page may take the focus): the page is there all the same.
  if (there) return there.focus().catch(() => there);
  const ours = windows[0];
  if (ours) {
    const moved = await ours.navigate(target).catch(() => null);
    if (moved) return moved.focus().catch(() => moved);
  }
  return self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data as { path?: unknown } | null)?.path;
  event.waitUntil(open(typeof path === "string" ? path : "/"));
});
