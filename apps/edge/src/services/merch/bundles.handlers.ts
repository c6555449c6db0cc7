import { adminHandlers } from "../../lib/admin-resource.ts";
import { ADMINS, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as routes from "./bundles.routes.ts";
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

const admin = adminHandlers({ view: bundleView, find: bundles.find });

export const createBundle = admin.create(routes.createBundle, createRow);
export const listBundles = admin.list(routes.listBundles, listRows);
export const countBundles = admin.count(routes.countBundles, countRows);
export const getBundle = admin.get(routes.getBundle);
export const updateBundle = admin.update(routes.updateBundle, updateRow);
export const deleteBundle = admin.remove(routes.deleteBundle, bundles.remove);

export const setThumbnail: AppRouteHandler<typeof routes.setThumbnail> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const id = c.req.valid("param").id;
  await bundles.find(c.var.deps.db, id);
  const file = imageFile((c.req.valid("form") as { file?: unknown }).file);
  return c.json(bundleView(await setRowThumbnail(c.var.deps, id, file)), 200);
};
