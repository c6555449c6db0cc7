import { createRouter } from "../../lib/openapi.ts";
import { sentryTestingRouter } from "../sentry-testing.ts";
import { statusRouter } from "../status.ts";
import { genSongRoutes } from "./gen-songs.routes.ts";
import { uploadRoutes } from "./upload.routes.ts";

export function uploadService() {
  const router = createRouter();
  router.route("/", uploadRoutes);
  router.route("/", genSongRoutes);
  router.route("/", sentryTestingRouter("upload"));
  router.route("/", statusRouter("upload", "1.3.2", "/info-admin/upload-service-status"));
  return router;
}
