import { ADMINS, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./files.routes.ts";
import { imageFile, readImage, storeImage } from "./files.ts";

export const uploadFile: AppRouteHandler<typeof routes.uploadFile> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const file = imageFile((c.req.valid("form") as { file?: unknown }).file);
  return c.json(await storeImage(c.var.deps, file), 201);
};

export const getFile: AppRouteHandler<typeof routes.getFile> = async (c) => {
  const image = await readImage(c.var.deps, c.req.valid("param").fileId);
  return c.body(image.data as Uint8Array<ArrayBuffer>, 200, {
    "content-type": image.contentType,
    "cache-control": "public, max-age=31536000, immutable",
  });
};
