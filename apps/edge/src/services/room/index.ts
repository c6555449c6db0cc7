import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";
import { communitiesRoutes } from "./communities.routes.ts";
import { eventsRoutes } from "./events.routes.ts";

export function roomService() {
  const router = createRouter();
  router.route("/", statusRouter("room", "1.0.0", "/info-admin/room-service-status"));
  for (const routes of [communitiesRoutes, eventsRoutes]) router.route("/", routes);
  return router;
}
