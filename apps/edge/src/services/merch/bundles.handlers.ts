import { ADMINS, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./bundles.routes.ts";
import {
  bundles,
  bundleView,
  countBundles as countRows,
  createBundle as createRow,
  listBundles as listRows,
  setThumbnail as setRowThumbnail,
  updateBundle as updateRow,
} from "./bundles.ts";
import { imageFile } from "./files.ts";

export const createBundle: AppRouteHandler<typeof routes.createBundle> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  return c.json(bundleView(await createRow(db, c.req.valid("json"), clock.now())), 201);
};

export const listBundles: AppRouteHandler<typeof routes.listBundles> = async (c) =>
  c.json((await listRows(c.var.deps.db, c.req.valid("query"))).map(bundleView), 200);

export const countBundles: AppRouteHandler<typeof routes.countBundles> = async (c) =>
  c.json({ count: await countRows(c.var.deps.db, c.req.valid("query")) }, 200);

export const getBundle: AppRouteHandler<typeof routes.getBundle> = async (c) =>
  c.json(bundleView(await bundles.find(c.var.deps.db, c.req.valid("param").id)), 200);

export const updateBundle: AppRouteHandler<typeof routes.updateBundle> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  return c.json(bundleView(await updateRow(db, c.req.valid("param").id, c.req.valid("json"), clock.now())), 200);
};

export const deleteBundle: AppRouteHandler<typeof routes.deleteBundle> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  await bundles.remove(c.var.deps.db, c.req.valid("param").id);
  return c.body(null, 204);
};

export const setThumbnail: AppRouteHandler<typeof routes.setThumbnail> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const id = c.req.valid("param").id;
  await bundles.find(c.var.deps.db, id);
  const file = imageFile((c.req.valid("form") as { file?: unknown }).file);
  return c.json(bundleView(await setRowThumbnail(c.var.deps, id, file)), 200);
};
