import { requireService, requireToken } from "../../lib/auth.ts";
import { forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as queue from "./queue.ts";
import type * as routes from "./queue-service.routes.ts";

export const upcoming: AppRouteHandler<typeof routes.upcoming> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  const { userUuid } = c.req.valid("param");
  const { limit } = c.req.valid("query");
  return c.json({ songs: await queue.upcomingOf(db, userUuid, limit, clock.now(), c.var.deps.config.brand) }, 200);
};

export const advance: AppRouteHandler<typeof routes.advance> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  const { userUuid } = c.req.valid("param");
  const { crateSongUuid, limit } = c.req.valid("json");
  const brand = c.var.deps.config.brand;
  return c.json({ songs: await queue.advanceQueue(db, userUuid, crateSongUuid, limit, clock.now(), brand) }, 200);
};

export const playableSong: AppRouteHandler<typeof routes.playableSong> = async (c) => {
  // What a room broadcasts to every listener comes from here: no admin or user may stand in for the room.
  if (requireToken(c).type !== "service") throw forbidden();
  const { userUuid, songId } = c.req.valid("param");
  const { crateSongUuid } = c.req.valid("query");
  return c.json(await queue.playableSong(c.var.deps.db, userUuid, songId, crateSongUuid, c.var.deps.config.brand), 200);
};

export const likeSong: AppRouteHandler<typeof routes.likeSong> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  const liked = await queue.likeSong(db, c.req.valid("param").userUuid, c.req.valid("json").songId, clock.now());
  return liked.added ? c.json(liked, 201) : c.json(liked, 200);
};

export const grabSong: AppRouteHandler<typeof routes.grabSong> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  const { userUuid, crate } = c.req.valid("param");
  const added = await queue.addToCrateOf(db, userUuid, crate, c.req.valid("json").songId, clock.now());
  return added.added ? c.json(added, 201) : c.json(added, 200);
};
