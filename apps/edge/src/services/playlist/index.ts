import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";
import { catalogueRoutes } from "./catalogue.routes.ts";
import { crateRoutes } from "./crate.routes.ts";
import { exportRoutes } from "./exports.routes.ts";
import { importRoutes } from "./import.routes.ts";
import { queueServiceRoutes } from "./queue-service.routes.ts";

export function playlistService() {
  const router = createRouter();
  router.route("/", queueServiceRoutes);
  router.route("/", crateRoutes);
  router.route("/", catalogueRoutes);
  router.route("/", importRoutes);
  router.route("/", exportRoutes);
  router.route("/", statusRouter("playlists", "1.6.0", "/info-admin/playlists-service-status"));
  return router;
}
