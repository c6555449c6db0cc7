import { requireUser } from "../../lib/auth.ts";
import { type AppRouteHandler, uuidList } from "../../lib/openapi.ts";
import type * as routes from "./favorites.routes.ts";
import * as favorites from "./favorites.ts";
import { favoriteView } from "./favorites.ts";

export const addFavorite: AppRouteHandler<typeof routes.addFavorite> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const { favorite, created } = await favorites.addFavorite(db, user.uuid, c.req.valid("json").roomUuid, clock.now());
  return created ? c.json(favoriteView(favorite), 201) : c.json(favoriteView(favorite), 200);
};

export const listFavorites: AppRouteHandler<typeof routes.listFavorites> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const query = c.req.valid("query");
  const rooms = uuidList(query.roomUuidIn, "roomUuidIn");
  const rows = await favorites.favoritesOf(c.var.deps.db, query.userUuid ?? user.uuid, user.uuid, rooms, query.limit);
  return c.json(rows.map(favoriteView), 200);
};

export const removeFavorite: AppRouteHandler<typeof routes.removeFavorite> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  await favorites.removeFavorite(c.var.deps.db, user.uuid, c.req.valid("param").id);
  return c.body(null, 204);
};
