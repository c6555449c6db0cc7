import { ADMINS, hasAnyRole, outranks, rateLimit, requireUser } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, forbidden, found, HttpError, notFound } from "../../lib/errors.ts";
import { MAX_IMAGE_BYTES, sniffImage } from "../../lib/images.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as images from "./images.ts";
import { IMAGE_NOT_FOUND, imageView, UNAUTHORIZED_TO_DELETE } from "./images.ts";
import type * as routes from "./profile-images.routes.ts";

export const uploadImage: AppRouteHandler<typeof routes.uploadImage> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  await rateLimit(c, `images:${user.uuid}`, 30, 3600);
  const form = c.req.valid("form");
  const file = form.file as unknown;
  if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
  if (file.size > MAX_IMAGE_BYTES) throw new HttpError(413, errorMessage("IMAGE_TOO_LARGE"));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = sniffImage(bytes);
  if (!contentType) throw new HttpError(415, errorMessage("IMAGE_UNSUPPORTED"));
  const { db, storage, clock } = c.var.deps;
  const id = crypto.randomUUID();
  const storageKey = `images/${user.uuid}/${id}`;
  await storage.put(storageKey, bytes, contentType);
  const row = await images.saveProfileImage(
    db,
    { id, userUuid: user.uuid, type: form.type, storageKey, contentType, size: bytes.length },
    () => clock.now(),
  );
  return c.json(imageView(row), 201);
};

export const getImage: AppRouteHandler<typeof routes.getImage> = async (c) => {
  const { db, storage } = c.var.deps;
  const row = await images.findImage(db, c.req.valid("param").id);
  const object = row ? await storage.get(row.storageKey) : null;
  if (!row || !object) throw notFound(IMAGE_NOT_FOUND);
  return c.body(object.data as Uint8Array<ArrayBuffer>, 200, {
    "content-type": object.contentType,
    "cache-control": "public, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
  });
};

/** `DELETE` of an image; the rooms that show it as their poster are the room service's (`forgetRoomPoster`). */
export const deleteImage =
  (forgetRoomPoster: images.ForgetRoomPoster): AppRouteHandler<typeof routes.deleteImage> =>
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db, storage, clock } = c.var.deps;
    const row = found(await images.findImage(db, c.req.valid("param").id), IMAGE_NOT_FOUND);
    if (row.userUuid !== user.uuid) {
      if (!hasAnyRole(user.roles, ADMINS)) throw forbidden(UNAUTHORIZED_TO_DELETE);
      // An admin removes the images of accounts they outrank, not another admin's.
      const ownerRoles = await images.ownerRoles(db, row.userUuid);
      if (ownerRoles && !outranks(user.roles, ownerRoles)) throw forbidden(UNAUTHORIZED_TO_DELETE);
    }
    await images.deleteImage(db, row, () => clock.now(), forgetRoomPoster);
    await storage.delete(row.storageKey);
    return c.body(null, 204);
  };
