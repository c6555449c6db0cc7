import { z } from "@hono/zod-openapi";
import { allForServices, removal } from "../../lib/contract-families.ts";
import {
  contracts,
  created,
  Int,
  jsonBody,
  limitOffset,
  noContentOr,
  ok,
  pageSchema,
  UuidParam,
  uuidParams,
} from "../../lib/openapi.ts";
import { CrateSchema, CrateSongSchema, type SpecialKind } from "./crates.ts";

const { authed } = contracts(["Crates"]);

const CrateSongParams = uuidParams("crateSongUuid");
const Paging = z.object(limitOffset(5000, 5000));
const AddBody = z
  .object({
    songId: z.uuid().optional(),
    songIds: z.array(z.uuid()).min(1).max(500).optional(),
    position: Int.min(0).optional(),
  })
  .refine((b) => !!b.songId !== !!b.songIds, { message: "give songId or songIds", path: ["songId"] });

/**
 * The song operations every crate has, for a user's crate by id and for their queue and likes. `base` is the path;
 * `special` names the special crate, or is absent for `/crate/{id}`.
 */
export function crateSongRoutes(base: string, special?: SpecialKind) {
  const { authed } = contracts([special ? `Crates: ${special}` : "Crates"]);
  const params = special ? {} : { params: UuidParam };
  const entryParams = special ? CrateSongParams : UuidParam.extend(CrateSongParams.shape);
  const what = special ? `the caller's ${special} crate` : "crate {id}";
  return {
    get: authed("get", base, {
      summary: `Get ${what}`,
      request: { ...params },
      responses: ok(CrateSchema, 400, 401, 403, 404),
    }),
    songs: authed("get", `${base}/songs`, {
      summary: `The songs of ${what}, in order`,
      request: { ...params, query: Paging },
      responses: ok(z.array(CrateSongSchema), 400, 401, 403, 404),
    }),
    addSongs: authed("post", `${base}/songs`, {
      summary: `Add songs to ${what} (at the end, or at a position)`,
      request: { ...params, ...jsonBody(AddBody) },
      responses: created(z.array(CrateSongSchema), 400, 401, 403, 404, 409, 422),
    }),
    currentPosition: authed("put", `${base}/current-position`, {
      summary: `Set the position of the song playing next in ${what}`,
      request: { ...params, ...jsonBody(z.object({ position: Int.min(0) })) },
      responses: ok(CrateSchema, 400, 401, 403, 404),
    }),
    removeSong: authed("delete", `${base}/songs/{crateSongUuid}`, {
      summary: `Remove a song from ${what}`,
      request: { params: entryParams },
      responses: noContentOr(400, 401, 403, 404),
    }),
    moveSong: authed("put", `${base}/songs/{crateSongUuid}/position`, {
      summary: `Move a song of ${what} to a position`,
      request: { params: entryParams, ...jsonBody(z.object({ position: Int.min(0) })) },
      responses: ok(z.array(CrateSongSchema), 400, 401, 403, 404),
    }),
    shuffle: authed("post", `${base}/songs/shuffle`, {
      summary: `Shuffle ${what}`,
      request: { ...params },
      responses: ok(z.array(CrateSongSchema), 400, 401, 403, 404),
    }),
  };
}
export type CrateSongRoutes = ReturnType<typeof crateSongRoutes>;

/** Emptying a special crate (a playlist is deleted instead). */
const emptyCrate = (base: string, special: SpecialKind) =>
  authed("delete", `${base}/songs`, {
    summary: `Empty the caller's ${special} crate`,
    tags: [`Crates: ${special}`],
    responses: noContentOr(401, 403),
  });

// Special paths first (see index.ts), so "/crate/special/queue" never reads as a crate id.
export const queue = crateSongRoutes("/crate/special/queue", "queue");
export const emptyQueue = emptyCrate("/crate/special/queue", "queue");
export const likes = crateSongRoutes("/crate/special/likes", "likes");
export const emptyLikes = emptyCrate("/crate/special/likes", "likes");

// ---- the caller's playlists

const CrateBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(1000).nullable().optional(),
});
const CratePage = pageSchema(CrateSchema, "CratePage");
const UserParam = uuidParams("userUuid");
const CratePaging = z.object(limitOffset(100, 32));

export const createCrate = authed("post", "/crate", {
  summary: 'Create a crate (named "New Playlist #N" when no name is given)',
  request: jsonBody(CrateBody),
  responses: created(CrateSchema, 400, 401, 403),
});

export const ownCrates = authed("get", "/crate/user", {
  summary: "The caller's crates, newest first",
  request: { query: CratePaging },
  responses: ok(CratePage, 400, 401, 403),
});

export const userCratesForService = authed("get", "/crate/user/service/{userUuid}", {
  summary: "Every crate of a user, the queue and likes included (services)",
  tags: ["Service"],
  request: { params: UserParam },
  responses: ok(CratePage, 400, 401, 403),
});

export const userCrates = authed("get", "/crate/user/{userUuid}", {
  summary: "Another user's crates (their playlists; never their queue or likes)",
  request: { params: UserParam, query: CratePaging },
  responses: ok(CratePage, 400, 401, 403),
});

export const allCrates = allForServices(
  authed,
  "/crate/service/all-crates",
  "Every playlist, oldest first (services)",
  CratePage,
);

export const songsByShortId = authed("get", "/crate/service/{crateShortId}/songs", {
  summary: "The songs of a crate by its short id (services)",
  tags: ["Service"],
  request: {
    params: z.object({
      crateShortId: z
        .string()
        .min(1)
        .max(32)
        .openapi({ param: { name: "crateShortId", in: "path" } }),
    }),
  },
  responses: ok(z.array(CrateSongSchema), 400, 401, 403, 404),
});

export const byId = crateSongRoutes("/crate/{id}");

export const updateCrate = authed("patch", "/crate/{id}", {
  summary: "Rename or describe a crate",
  request: { params: UuidParam, ...jsonBody(CrateBody) },
  responses: ok(CrateSchema, 400, 401, 403, 404),
});

export const deleteCrate = removal(authed, "/crate/{id}", "Delete a crate");

export const copyCrate = authed("put", "/crate/{id}/copy", {
  summary: "Copy a crate (one's own or another user's playlist) into a new crate of the caller",
  request: { params: UuidParam },
  responses: created(CrateSchema, 400, 401, 403, 404),
});
