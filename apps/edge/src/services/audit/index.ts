import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";

export function auditService() {
  const router = createRouter();
  router.route("/", statusRouter("audit", "1.0.0", "/info-admin/audit-service-status"));
  return router;
}
