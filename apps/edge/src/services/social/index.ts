import { createRouter } from "../../lib/openapi.ts";
import { blockedUsersRoutes } from "./blocked-users.routes.ts";
import { contactsRoutes } from "./contacts.routes.ts";
import { devicesRoutes } from "./devices.routes.ts";
import { djFansRoutes } from "./dj-fans.routes.ts";
import { friendsRoutes } from "./friends.routes.ts";
import { notificationsRoutes } from "./notifications.routes.ts";
import { webPushRoutes } from "./web-push.routes.ts";

export function socialService() {
  const router = createRouter();
  for (const routes of [
    djFansRoutes,
    friendsRoutes,
    blockedUsersRoutes,
    contactsRoutes,
    devicesRoutes,
    notificationsRoutes,
    webPushRoutes,
  ])
    router.route("/", routes);
  return router;
}
