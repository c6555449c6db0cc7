import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";
import { authRoutes } from "./auth.routes.ts";
import { signUpRoutes } from "./sign-up.routes.ts";

export function userService() {
  const router = createRouter();
  router.route("/", authRoutes);
  router.route("/", signUpRoutes);
  router.route("/", statusRouter("user", "1.9.0", "/info-admin/user-service-status"));
  return router;
}
