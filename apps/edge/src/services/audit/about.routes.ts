import { createRoute, z } from "@hono/zod-openapi";
import { json } from "../../lib/openapi.ts";

export const about = createRoute({
  method: "get",
  path: "/",
  tags: ["Status"],
  summary: "What this service is (anyone)",
  responses: {
    200: json(
      z
        .object({
          name: z.string(),
          version: z.string(),
          description: z.string(),
          docs: z.string().openapi({ description: "This service's OpenAPI document" }),
        })
        .openapi("AuditServiceInfo"),
    ),
  },
});
