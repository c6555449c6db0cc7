import { createRouter } from "../../lib/openapi.ts";
import { sentryTestingRouter } from "../sentry-testing.ts";
import { statusRouter } from "../status.ts";
import { AUDIT_SERVICE, aboutRoutes } from "./about.routes.ts";
import { eventRoutes } from "./events.routes.ts";
import { geolocateRoutes } from "./geolocate.routes.ts";
import { moderationActionRoutes } from "./moderation-actions.routes.ts";
import { userActionRoutes } from "./user-actions.routes.ts";

export function auditService() {
  const router = createRouter();
  router.route("/", aboutRoutes);
  router.route("/", geolocateRoutes);
  router.route("/", eventRoutes);
  router.route("/", userActionRoutes);
  router.route("/", moderationActionRoutes);
  router.route("/", sentryTestingRouter("audit"));
  router.route("/", statusRouter("audit", AUDIT_SERVICE.version, "/info-admin/audit-service-status"));
  return router;
}
