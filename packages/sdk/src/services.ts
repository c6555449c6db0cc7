/** The edge's services, in the order the SDK lists them: one typed client, one OpenAPI document (openapi/<name>.json) each. */
export const SERVICE_NAMES = ["user", "social", "audit", "room", "upload", "payment", "playlist", "merch"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
