export const AUDIT_SERVICE = { name: "audit-service", version: "1.0.0" } as const;

/** What this service is, for `GET /`. */
export const serviceInfo = () => ({
  ...AUDIT_SERVICE,
  description:
    "Geolocation of IP addresses, analytics events (POST /kinesis), users' recent actions and the moderation log.",
  docs: "/api/audit-service/openapi.json",
});
