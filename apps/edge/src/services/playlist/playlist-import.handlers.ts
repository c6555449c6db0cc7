import { requireUser } from "../../lib/auth.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { rateLimit } from "../../lib/rate-limit.ts";
import { requireOffered } from "./brand.ts";
import type * as routes from "./playlist-import.routes.ts";
import { importView, ownImport, startImport as start } from "./playlist-imports.ts";
import { NOT_A_PLAYLIST_LINK, parsePlaylistLink } from "./playlist-links.ts";
import { requirePlaylistSettings } from "./playlist-sources.ts";

/** Imports per account per hour: each one pages through a provider's API with Booth's own credentials. */
export const IMPORTS_PER_HOUR = 20;

export const startImport: AppRouteHandler<typeof routes.startImport> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const link = parsePlaylistLink(c.req.valid("json").link);
  if (!link) throw badRequest(NOT_A_PLAYLIST_LINK);
  requireOffered(c.var.deps, link.provider, "playlists");
  requirePlaylistSettings(c.var.deps, link.provider);
  await rateLimit(c, `playlist-import:${user.uuid}`, IMPORTS_PER_HOUR, 3600);
  return c.json(importView(await start(c.var.deps, user.uuid, link)), 202);
};

export const getImport: AppRouteHandler<typeof routes.getImport> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  return c.json(importView(await ownImport(c.var.deps, c.req.valid("param").importId, user.uuid)), 200);
};
