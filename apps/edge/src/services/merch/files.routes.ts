import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json } from "../../lib/openapi.ts";

const tags = ["Files"];

export const uploadFile = createRoute({
  method: "post",
  path: "/files",
  tags,
  summary: "Upload an image for a consumable or a bundle (admins; png, jpeg, webp or gif, at most 5 MB)",
  security: bearer,
  request: {
    body: {
      required: true,
      content: {
        "multipart/form-data": { schema: z.object({ file: z.any().openapi({ type: "string", format: "binary" }) }) },
      },
    },
  },
  responses: {
    201: json(
      z.object({ id: z.uuid(), url: z.string(), contentType: z.string(), size: z.number().int() }).openapi("MerchFile"),
      "Created",
    ),
    ...errors(400, 401, 403, 413, 415),
  },
});

export const getFile = createRoute({
  method: "get",
  path: "/files/{fileId}",
  tags,
  summary: "A stored image",
  request: { params: z.object({ fileId: z.uuid().openapi({ param: { name: "fileId", in: "path" } }) }) },
  responses: { 200: { description: "The image" }, ...errors(400, 404) },
});
