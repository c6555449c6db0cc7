import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { isApiError, userMessage } from "../../lib/errors.ts";
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

type Outcome =
  | { intent: string; ok: true; error: null; imported?: number; skipped?: { line: string; message: string }[] }
  | { intent: string; ok: false; error: string };

const refused = (intent: string, error: string) => data({ intent, ok: false, error } as Outcome, { status: 400 });

/** Every change to a crate: rename, delete, move, remove, shuffle, empty, play next, import, copy. */
export async function changeCrate(request: Request, id: string | undefined) {
  const target = crateTarget(id);
  const { token } = await requireViewer(request);
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
      case "import": {
        const lines = importLines(field(form, "links"));
        if (lines.length === 0) return refused(intent, "Paste at least one track link.");
        return ok(await importTracks(booth, target, lines));
      }
      default:
        return refused(intent, "Unknown action.");
    }
  } catch (e) {
    return refused(intent, userMessage(e));
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
