import { ImageType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, noContent, UuidParam } from "../../lib/openapi.ts";

const tags = ["Images"];

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

export const uploadImage = createRoute({
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
});

export const getImage = createRoute({
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
});

export const deleteImage = createRoute({
  method: "delete",
  path: "/users/images/{id}",
  tags,
  summary: "Delete an image (its owner or an admin); the profile stops showing it",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
