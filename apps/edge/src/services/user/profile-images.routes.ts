import { schema } from "@booth/db";
import { ImageType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { ADMINS, hasAnyRole, outranks, rateLimit, requireUser } from "../../lib/auth.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { imageUrl, MAX_IMAGE_BYTES, sniffImage } from "../../lib/images.ts";
import { bearer, createRouter, errors, json, noContent, UuidParam } from "../../lib/openapi.ts";

export const UNAUTHORIZED_TO_DELETE = "Unauthorized to delete.";

const tags = ["Images"];
export const profileImageRoutes = createRouter();

const ImageSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    type: z.enum(values(ImageType)),
    contentType: z.string(),
    size: z.number().int(),
    url: z.string(),
    createdAt: z.string(),
  })
  .openapi("Image");

const profileField = (type: ImageType) => (type === "profilePicture" ? "profilePicture" : "coverPicture");

profileImageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/images",
    tags,
    summary: "Upload a profile or cover picture (png, jpeg, webp or gif, at most 5 MB); it becomes the profile's",
    security: bearer,
    request: {
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: z.object({
              file: z.any().openapi({ type: "string", format: "binary" }),
              type: z.enum(["profilePicture", "coverPicture"]),
            }),
          },
        },
      },
    },
    responses: { 201: json(ImageSchema, "Created"), ...errors(400, 401, 403, 413, 415, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    await rateLimit(c, `images:${user.uuid}`, 30, 3600);
    const form = c.req.valid("form");
    const file = form.file as unknown;
    if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
    if (file.size > MAX_IMAGE_BYTES) throw new HttpError(413, "The image is larger than 5 MB.");
    const bytes = new Uint8Array(await file.arrayBuffer());
    const contentType = sniffImage(bytes);
    if (!contentType) throw new HttpError(415, "The file is not a png, jpeg, webp or gif image.");
    const { db, storage, clock } = c.var.deps;
    const id = crypto.randomUUID();
    const storageKey = `images/${user.uuid}/${id}`;
    await storage.put(storageKey, bytes, contentType);
    const field = profileField(form.type);
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(schema.images)
        .values({
          id,
          userUuid: user.uuid,
          type: form.type,
          storageKey,
          contentType,
          size: bytes.length,
          createdAt: clock.now(),
        })
        .returning();
      await tx
        .update(schema.profiles)
        .set({ [field]: imageUrl(id), updatedAt: clock.now() })
        .where(eq(schema.profiles.userUuid, user.uuid));
      return inserted;
    });
    if (!row) throw new Error("image insert returned nothing");
    return c.json(
      {
        id: row.id,
        userUuid: row.userUuid,
        type: row.type,
        contentType: row.contentType,
        size: row.size,
        url: imageUrl(row.id),
        createdAt: row.createdAt.toISOString(),
      },
      201,
    );
  },
);

profileImageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/images/{id}",
    tags,
    summary: "An uploaded image's bytes (anyone)",
    request: { params: UuidParam },
    responses: {
      200: {
        description: "The image",
        content: { "image/*": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
      },
      ...errors(400, 404),
    },
  }),
  async (c) => {
    const { db, storage } = c.var.deps;
    const [row] = await db
      .select()
      .from(schema.images)
      .where(eq(schema.images.id, c.req.valid("param").id));
    const object = row ? await storage.get(row.storageKey) : null;
    if (!row || !object) throw notFound("Image not found.");
    return c.body(object.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": object.contentType,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
  },
);

profileImageRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/users/images/{id}",
    tags,
    summary: "Delete an image (its owner or an admin); the profile stops showing it",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db, storage, clock } = c.var.deps;
    const [row] = await db
      .select()
      .from(schema.images)
      .where(eq(schema.images.id, c.req.valid("param").id));
    if (!row) throw notFound("Image not found.");
    if (row.userUuid !== user.uuid) {
      if (!hasAnyRole(user.roles, ADMINS)) throw forbidden(UNAUTHORIZED_TO_DELETE);
      // An admin removes the images of accounts they outrank, not another admin's.
      const [owner] = await db
        .select({ roles: schema.users.roles })
        .from(schema.users)
        .where(eq(schema.users.uuid, row.userUuid));
      if (owner && !outranks(user.roles, owner.roles)) throw forbidden(UNAUTHORIZED_TO_DELETE);
    }
    const field = profileField(row.type);
    await db.transaction(async (tx) => {
      await tx.delete(schema.images).where(eq(schema.images.id, row.id));
      const [profile] = await tx.select().from(schema.profiles).where(eq(schema.profiles.userUuid, row.userUuid));
      if (profile?.[field] === imageUrl(row.id))
        await tx
          .update(schema.profiles)
          .set({ [field]: null, updatedAt: clock.now() })
          .where(eq(schema.profiles.userUuid, row.userUuid));
      // A room poster is an image too: its room stops showing it.
      await tx
        .update(schema.rooms)
        .set({ posterUrl: null, updatedAt: clock.now() })
        .where(eq(schema.rooms.posterUrl, imageUrl(row.id)));
    });
    await storage.delete(row.storageKey);
    return c.body(null, 204);
  },
);
