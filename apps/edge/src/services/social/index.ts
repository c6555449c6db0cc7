import { createRouter } from "../../lib/openapi.ts";
import { devicesRoutes } from "./devices.routes.ts";
import { notificationsRoutes } from "./notifications.routes.ts";
import { webPushRoutes } from "./web-push.routes.ts";

export function socialService() {
  const router = createRouter();
  for (const routes of [devicesRoutes, notificationsRoutes, webPushRoutes]) router.route("/", routes);
  return router;
}
