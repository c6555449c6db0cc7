import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";
import { adminPhoneRoutes } from "./admin-phone.routes.ts";
import { adminUsersRoutes } from "./admin-users.routes.ts";
import { authRoutes } from "./auth.routes.ts";
import { deactivationRoutes } from "./deactivation.routes.ts";
import { emailsRoutes } from "./emails.routes.ts";
import { identitiesRoutes } from "./identities.routes.ts";
import { imagesRoutes } from "./images.routes.ts";
import { moderationRoutes } from "./moderation.routes.ts";
import { passwordsRoutes } from "./passwords.routes.ts";
import { phoneRoutes } from "./phone.routes.ts";
import { profilesRoutes } from "./profiles.routes.ts";
import { signUpRoutes } from "./sign-up.routes.ts";
import { vouchersRoutes } from "./vouchers.routes.ts";

export function userService() {
  const router = createRouter();
  for (const routes of [
    authRoutes,
    signUpRoutes,
    passwordsRoutes,
    emailsRoutes,
    phoneRoutes,
    identitiesRoutes,
    adminPhoneRoutes,
    profilesRoutes,
    imagesRoutes,
    moderationRoutes,
    deactivationRoutes,
    vouchersRoutes,
    adminUsersRoutes,
  ])
    router.route("/", routes);
  router.route("/", statusRouter("user", "1.9.0", "/info-admin/user-service-status"));
  return router;
}
