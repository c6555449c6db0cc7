import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, json } from "../../lib/openapi.ts";

export const AUDIT_SERVICE = { name: "audit-service", version: "1.0.0" } as const;

export const aboutRoutes = createRouter();

aboutRoutes.openapi(
  createRoute({
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
  }),
  (c) =>
    c.json(
      {
        ...AUDIT_SERVICE,
        description:
          "Geolocation of IP addresses, analytics events (POST /kinesis), users' recent actions and the moderation log.",
        docs: "/api/audit-service/openapi.json",
      },
      200,
    ),
);
