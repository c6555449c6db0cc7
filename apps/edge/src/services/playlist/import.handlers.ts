import type { AppRouteHandler } from "../../lib/openapi.ts";
import { requireOfferedSongs } from "./brand.ts";
import { callerCrate } from "./crate-access.ts";
import type * as routes from "./import.routes.ts";
import { addCatalogueSong, importTracks } from "./imports.ts";

export const trackImport: AppRouteHandler<typeof routes.trackImport> = async (c) => {
  const body = c.req.valid("json");
  const { crate } = await callerCrate(c, body.crateUuid ?? "queue", "write");
  return c.json(await importTracks(c.var.deps, crate, body.songs), 200);
};

export const addTrack: AppRouteHandler<typeof routes.addTrack> = async (c) => {
  const { crate } = await callerCrate(c, c.req.valid("param").crateUuid, "write");
  const { songId, append } = c.req.valid("json");
  await requireOfferedSongs(c.var.deps, [songId]);
  return c.json(await addCatalogueSong(c.var.deps, crate, songId, append), 201);
};
