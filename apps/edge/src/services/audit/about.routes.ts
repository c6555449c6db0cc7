import { z } from "@hono/zod-openapi";
import { contracts, json } from "../../lib/openapi.ts";

const { route } = contracts(["Status"]);

export const about = route("get", "/", {
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
