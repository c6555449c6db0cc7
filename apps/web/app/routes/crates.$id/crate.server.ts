import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { type Booth, sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { isSpecial, type SpecialCrate } from "../crates._index/crates.ts";
import { importLines, parseImportLine } from "./import-links.ts";

export type Crate = Schema<"playlist", "Crate">;
export type CrateSong = Schema<"playlist", "CrateSong">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The queue and likes crates answer the same shapes; one path type covers both. */
const specialPath = <S extends string>(kind: SpecialCrate, rest: S) => `/crate/special/${kind}${rest}` as const;
const NOT_A_LINK = "This is not a track link we know.";

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

/** The crate the address names: "queue", "likes" or a crate's uuid. */
export function crateTarget(id: string | undefined): SpecialCrate | string {
  if (!id || !(isSpecial(id) || UUID.test(id))) notFound();
  return id;
}

async function fetchCrate(booth: Booth, target: string) {
  if (isSpecial(target)) {
    const path = specialPath(target, "") as "/crate/special/queue";
    const songs = specialPath(target, "/songs") as "/crate/special/queue/songs";
    const [crate, list] = await Promise.all([
      booth.playlist.GET(path, {}),
      booth.playlist.GET(songs, { params: { query: { limit: 5000 } } }),
    ]);
    return { crate: crate.data as Crate, songs: list.data ?? [] };
  }
  const [crate, list] = await Promise.all([
    booth.playlist.GET("/crate/{id}", { params: { path: { id: target } } }),
    booth.playlist.GET("/crate/{id}/songs", { params: { path: { id: target }, query: { limit: 5000 } } }),
  ]);
  return { crate: crate.data as Crate, songs: list.data ?? [] };
}

export async function loadCrate(request: Request, id: string | undefined) {
  const target = crateTarget(id);
  const { token, viewer } = await requireViewer(request);
  try {
    const { crate, songs } = await fetchCrate(sdkFor(token), target);
    return { crate, songs, owner: crate.userUuid === viewer.uuid, special: isSpecial(target) ? target : null };
  } catch (e) {
    if (isApiError(e, 404) || isApiError(e, 403)) notFound();
    throw e;
  }
}

/** A crate copied to a provider: counts, and the playlist's address only when it is the provider's own https one. */
export interface Exported {
  service: "spotify" | "apple";
  exported: number;
  missing: number;
  url: string | null;
}

type Outcome =
  | {
      intent: string;
      ok: true;
      error: null;
      imported?: number;
      skipped?: { line: string; message: string }[];
      exported?: Exported;
    }
  | { intent: string; ok: false; error: string; notConnected?: "spotify" | "apple" };

const refused = (intent: string, error: string) => data({ intent, ok: false, error } as Outcome, { status: 400 });

/** Every change to a crate: rename, delete, move, remove, shuffle, empty, play next, import, copy. */
export async function changeCrate(request: Request, id: string | undefined) {
  const target = crateTarget(id);
  const { token, viewer } = await requireViewer(request);
  const booth = sdkFor(token);
  const form = await request.formData();
  const intent = field(form, "intent");
  const special = isSpecial(target) ? target : null;
  const crateSongUuid = field(form, "crateSongUuid");
  const position = Number.parseInt(field(form, "position"), 10);
  const ok = (extra: Partial<Outcome> = {}) => ({ intent, ok: true, error: null, ...extra }) as Outcome;
  try {
    switch (intent) {
      case "rename": {
        if (special) return refused(intent, "The queue and likes crates cannot be renamed.");
        const name = field(form, "name");
        const description = field(form, "description");
        await booth.playlist.PATCH("/crate/{id}", {
          params: { path: { id: target } },
          body: { ...(name ? { name } : {}), description: description || null },
        });
        return ok();
      }
      case "delete":
        if (special) return refused(intent, "The queue and likes crates cannot be deleted; empty them instead.");
        await booth.playlist.DELETE("/crate/{id}", { params: { path: { id: target } } });
        return redirect("/crates");
      case "copy": {
        if (special) return refused(intent, "The queue and likes crates cannot be copied.");
        const { data: copy } = await booth.playlist.PUT("/crate/{id}/copy", { params: { path: { id: target } } });
        return redirect(`/crates/${copy?.crateUuid ?? ""}`);
      }
      case "move": {
        if (!UUID.test(crateSongUuid) || !(position >= 0)) return refused(intent, "Choose a song and a place.");
        const body = { position };
        if (special)
          await booth.playlist.PUT(
            specialPath(
              special,
              "/songs/{crateSongUuid}/position",
            ) as "/crate/special/queue/songs/{crateSongUuid}/position",
            { params: { path: { crateSongUuid } }, body },
          );
        else
          await booth.playlist.PUT("/crate/{id}/songs/{crateSongUuid}/position", {
            params: { path: { id: target, crateSongUuid } },
            body,
          });
        return ok();
      }
      case "remove": {
        if (!UUID.test(crateSongUuid)) return refused(intent, "Choose a song.");
        if (special)
          await booth.playlist.DELETE(
            specialPath(special, "/songs/{crateSongUuid}") as "/crate/special/queue/songs/{crateSongUuid}",
            { params: { path: { crateSongUuid } } },
          );
        else
          await booth.playlist.DELETE("/crate/{id}/songs/{crateSongUuid}", {
            params: { path: { id: target, crateSongUuid } },
          });
        return ok();
      }
      case "shuffle":
        if (special)
          await booth.playlist.POST(specialPath(special, "/songs/shuffle") as "/crate/special/queue/songs/shuffle", {});
        else await booth.playlist.POST("/crate/{id}/songs/shuffle", { params: { path: { id: target } } });
        return ok();
      case "clear":
        if (!special) return refused(intent, "Only the queue and likes crates are emptied at once.");
        await booth.playlist.DELETE(specialPath(special, "/songs") as "/crate/special/queue/songs", {});
        return ok();
      case "play-next": {
        if (!(position >= 0)) return refused(intent, "Choose a song.");
        if (special)
          await booth.playlist.PUT(
            specialPath(special, "/current-position") as "/crate/special/queue/current-position",
            {
              body: { position },
            },
          );
        else
          await booth.playlist.PUT("/crate/{id}/current-position", {
            params: { path: { id: target } },
            body: { position },
          });
        return ok();
      }
      case "export-spotify":
      case "export-apple": {
        const service = intent === "export-spotify" ? "spotify" : "apple";
        const result = await exportCrate(booth, viewer.uuid, target, service);
        if (!result) return data({ intent, ok: false, error: "", notConnected: service } as Outcome, { status: 400 });
        return ok({ exported: result });
      }
      case "import": {
        const lines = importLines(field(form, "links"));
        if (lines.length === 0) return refused(intent, "Paste at least one track link.");
        return ok(await importTracks(booth, target, lines));
      }
      default:
        return refused(intent, "Unknown action.");
    }
  } catch (e) {
    return refused(intent, userMessage(e, request));
  }
}

/** Imports pasted track links; every line that was not imported comes back with its reason. */
async function importTracks(booth: Booth, target: string, lines: string[]) {
  const skipped: { at: number; line: string; message: string }[] = [];
  const songs: { at: number; line: string; song: NonNullable<ReturnType<typeof parseImportLine>> }[] = [];
  for (const [at, line] of lines.entries()) {
    const song = parseImportLine(line);
    if (song) songs.push({ at, line, song });
    else skipped.push({ at, line, message: NOT_A_LINK });
  }
  let imported = 0;
  if (songs.length) {
    const crateUuid = isSpecial(target) ? (await fetchCrate(booth, target)).crate.crateUuid : target;
    const { data: result } = await booth.playlist.POST("/api/v1/track-import", {
      body: { crateUuid, songs: songs.map((s) => s.song) },
    });
    imported = result?.imported ?? 0;
    for (const s of result?.skipped ?? []) {
      const sent = songs[s.index];
      if (sent) skipped.push({ at: sent.at, line: sent.line, message: s.message });
    }
  }
  // In the order they were pasted.
  skipped.sort((a, b) => a.at - b.at);
  return { imported, skipped: skipped.map(({ line, message }) => ({ line, message })) };
}

const PLAYLIST_HOSTS = { spotify: "open.spotify.com", apple: "music.apple.com" } as const;

/** The provider's own https address of the playlist, else nothing (a provider's answer is not a link we trust). */
export function providerLink(service: "spotify" | "apple", url: string | null | undefined) {
  if (!url || url.length > 500) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" && u.hostname === PLAYLIST_HOSTS[service] && !u.username && !u.password
      ? u.toString()
      : null;
  } catch {
    return null;
  }
}

/**
 * Copies the crate to the person's connected Spotify or Apple Music account. The token is the connected account's,
 * fetched here from the edge (never from the browser): null when the account is not connected.
 */
async function exportCrate(booth: Booth, userUuid: string, target: string, service: "spotify" | "apple") {
  let result: Schema<"playlist", "PlaylistExport"> | undefined;
  if (service === "spotify") {
    let accessToken: string;
    try {
      const { data: fresh } = await booth.user.POST("/spotify/refresh-token", {});
      if (!fresh) return null;
      accessToken = fresh.accessToken;
    } catch (e) {
      if (isApiError(e, 404)) return null;
      throw e;
    }
    ({ data: result } = await booth.playlist.POST("/exports/spotify", { body: { crateUuid: target, accessToken } }));
  } else {
    const { data: apple } = await booth.user.GET("/apple/user-token/{id}", { params: { path: { id: userUuid } } });
    if (!apple?.musicUserToken) return null;
    ({ data: result } = await booth.playlist.POST("/exports/apple", {
      body: { crateUuid: target, musicUserToken: apple.musicUserToken },
    }));
  }
  if (!result) throw new Error("no export result");
  return {
    service,
    exported: result.exported,
    missing: result.skipped,
    url: providerLink(service, result.url),
  } satisfies Exported;
}
