import { ImageType, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { removal } from "../../lib/contract-families.ts";
import { contracts, created, errors, fileBody, UuidParam } from "../../lib/openapi.ts";

const { authed, route } = contracts(["Images"]);

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

export const uploadImage = authed("post", "/users/images", {
  summary: "Upload a profile or cover picture (png, jpeg, webp or gif, at most 5 MB); it becomes the profile's",
  request: fileBody({ type: z.enum(["profilePicture", "coverPicture"]) }),
  responses: created(ImageSchema, 400, 401, 403, 413, 415, 429),
});

export const getImage = route("get", "/users/images/{id}", {
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

export const deleteImage = removal(
  authed,
  "/users/images/{id}",
  "Delete an image (its owner or an admin); the profile stops showing it",
);
