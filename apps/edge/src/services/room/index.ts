import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";
import { roomCometChatRoutes } from "./cometchat.routes.ts";
import { communitiesRoutes } from "./communities.routes.ts";
import { eventsRoutes } from "./events.routes.ts";
import { roomFavoritesRoutes } from "./favorites.routes.ts";
import { roomRolesRoutes } from "./roles.routes.ts";
import { roomListsRoutes } from "./room-lists.routes.ts";
import { roomLiveRoutes } from "./room-live.routes.ts";
import { roomsRoutes } from "./rooms.routes.ts";

export function roomService() {
  const router = createRouter();
  router.route("/", statusRouter("room", "1.0.0", "/info-admin/room-service-status"));
  // Order matters: fixed paths such as /rooms/public are registered before /rooms/{slug}.
  for (const routes of [
    roomsRoutes,
    roomLiveRoutes,
    roomCometChatRoutes,
    roomRolesRoutes,
    roomFavoritesRoutes,
    communitiesRoutes,
    eventsRoutes,
    roomListsRoutes,
  ])
    router.route("/", routes);
  return router;
}
