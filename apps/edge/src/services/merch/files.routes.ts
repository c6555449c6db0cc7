import { z } from "@hono/zod-openapi";
import { contracts, created, errors, fileBody, uuidParams } from "../../lib/openapi.ts";

const { authed, route } = contracts(["Files"]);

export const uploadFile = authed("post", "/files", {
  summary: "Upload an image for a consumable or a bundle (admins; png, jpeg, webp or gif, at most 5 MB)",
  request: fileBody(),
  responses: created(
    z.object({ id: z.uuid(), url: z.string(), contentType: z.string(), size: z.number().int() }).openapi("MerchFile"),
    400,
    401,
    403,
    413,
    415,
  ),
});

export const getFile = route("get", "/files/{fileId}", {
  summary: "A stored image",
  request: { params: uuidParams("fileId") },
  responses: { 200: { description: "The image" }, ...errors(400, 404) },
});
