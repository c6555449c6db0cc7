import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../../lib/service-status.ts";
import * as chatHandlers from "./cometchat.handlers.ts";
import * as chat from "./cometchat.routes.ts";
import * as communityAdminHandlers from "./communities/admin.handlers.ts";
import * as communityAdmin from "./communities/admin.routes.ts";
import * as communityHandlers from "./communities/communities.handlers.ts";
import * as communities from "./communities/communities.routes.ts";
import * as discordBotHandlers from "./discord-bot.handlers.ts";
import * as discordBot from "./discord-bot.routes.ts";
import * as eventHandlers from "./events.handlers.ts";
import * as events from "./events.routes.ts";
import * as favoriteHandlers from "./favorites.handlers.ts";
import * as favorites from "./favorites.routes.ts";
import * as roleHandlers from "./roles.handlers.ts";
import * as roles from "./roles.routes.ts";
import * as listHandlers from "./room-lists.handlers.ts";
import * as lists from "./room-lists.routes.ts";
import * as liveHandlers from "./room-live.handlers.ts";
import * as live from "./room-live.routes.ts";
import * as roomHandlers from "./rooms.handlers.ts";
import * as rooms from "./rooms.routes.ts";

/**
 * The room service. Hono answers with the first route registered that matches, so the order below is the order of
 * matching: fixed paths (`/roomUserRoles/kick-user-from-room`, `/rooms/public`) come before the parametrised ones
 * of their shape (`/roomUserRoles/{room}`), and the room lists, `/rooms/{slug}` last of all, come after every other
 * `/rooms/...` route.
 */
export function roomService() {
  const router = createRouter();
  router.route("/", statusRouter("room", "1.0.0", "/info-admin/room-service-status"));
  router.route(
    "/",
    createRouter()
      .openapi(rooms.createRoom, roomHandlers.createRoom)
      .openapi(rooms.changeAllSettings, roomHandlers.changeAllSettings)
      .openapi(rooms.changeLook, roomHandlers.changeLook)
      .openapi(rooms.deleteRoom, roomHandlers.deleteRoom)
      .openapi(rooms.changeDjType, roomHandlers.changeDjType)
      .openapi(rooms.changeDjSeats, roomHandlers.changeDjSeats)
      .openapi(rooms.changeLiveAudio, roomHandlers.changeLiveAudio)
      .openapi(rooms.changeLiveState, roomHandlers.changeLiveState)
      .openapi(rooms.promoteRoom, roomHandlers.promoteRoom)
      .openapi(rooms.pinMessages, roomHandlers.pinMessages)
      .openapi(rooms.changeExternalUrl, roomHandlers.changeExternalUrl)
      .openapi(rooms.uploadPoster, roomHandlers.uploadPoster)
      .openapi(rooms.deletePoster, roomHandlers.deletePoster)
      .openapi(rooms.clearChat, roomHandlers.clearChat)
      .openapi(rooms.resetRoom, roomHandlers.resetRoom)
      .openapi(rooms.adminChange, roomHandlers.adminChange)
      .openapi(rooms.setGuestPassword, roomHandlers.setGuestPassword)
      .openapi(rooms.removeGuestPassword, roomHandlers.removeGuestPassword)
      .openapi(rooms.attachDiscord, roomHandlers.attachDiscord)
      .openapi(rooms.discordActivityRoom, roomHandlers.discordActivityRoom),
  );
  router.route(
    "/",
    createRouter()
      .openapi(live.joinRoom, liveHandlers.joinRoom)
      .openapi(live.userEntered, liveHandlers.userEntered)
      .openapi(live.userLeft, liveHandlers.userLeft)
      .openapi(live.roomUsers, liveHandlers.roomUsers)
      .openapi(live.roomUserUuids, liveHandlers.roomUserUuids)
      .openapi(live.roomState, liveHandlers.roomState)
      .openapi(live.roomCrate, liveHandlers.roomCrate)
      .openapi(live.recordPlay, liveHandlers.recordPlay)
      .openapi(live.recentPlays, liveHandlers.recentPlays)
      .openapi(live.playedTime, liveHandlers.playedTime)
      .openapi(live.playedSeconds, liveHandlers.playedSeconds),
  );
  router.route(
    "/",
    createRouter().openapi(chat.syncChat, chatHandlers.syncChat).openapi(chat.joinChat, chatHandlers.joinChat),
  );
  router.route("/", createRouter().openapi(discordBot.interactions, discordBotHandlers.interactions));
  router.route(
    "/",
    createRouter()
      // Fixed paths first: /roomUserRoles/{room} would answer for them.
      .openapi(roles.kickUser, roleHandlers.kickUser)
      .openapi(roles.noDancefloorUsers, roleHandlers.noDancefloorUsers)
      .openapi(roles.roomRoles, roleHandlers.roomRoles)
      .openapi(roles.userRoles, roleHandlers.userRoles)
      .openapi(roles.grantRole, roleHandlers.grantRole)
      .openapi(roles.removeRole, roleHandlers.removeRole)
      .openapi(roles.changeOwner, roleHandlers.changeOwner),
  );
  router.route(
    "/",
    createRouter()
      .openapi(favorites.addFavorite, favoriteHandlers.addFavorite)
      .openapi(favorites.listFavorites, favoriteHandlers.listFavorites)
      .openapi(favorites.removeFavorite, favoriteHandlers.removeFavorite),
  );
  router.route(
    "/",
    createRouter()
      .openapi(communityAdmin.adminList, communityAdminHandlers.adminList)
      .openapi(communityAdmin.adminCreate, communityAdminHandlers.adminCreate)
      .openapi(communityAdmin.adminBulkCreate, communityAdminHandlers.adminBulkCreate)
      .openapi(communityAdmin.adminGet, communityAdminHandlers.adminGet)
      .openapi(communityAdmin.adminPatch, communityAdminHandlers.adminPatch)
      .openapi(communityAdmin.adminReplace, communityAdminHandlers.adminReplace)
      .openapi(communityAdmin.adminDelete, communityAdminHandlers.adminDelete),
  );
  router.route(
    "/",
    createRouter()
      .openapi(communities.userCommunities, communityHandlers.userCommunities)
      .openapi(communities.roomCommunities, communityHandlers.roomCommunities)
      .openapi(communities.getCommunity, communityHandlers.getCommunity)
      .openapi(communities.members, communityHandlers.members)
      .openapi(communities.join, communityHandlers.join)
      .openapi(communities.leave, communityHandlers.leave)
      .openapi(communities.addMany, communityHandlers.addMany)
      .openapi(communities.removeMany, communityHandlers.removeMany)
      .openapi(communities.addMember, communityHandlers.addMember)
      .openapi(communities.removeMember, communityHandlers.removeMember)
      .openapi(communities.rooms, communityHandlers.rooms)
      .openapi(communities.addRoom, communityHandlers.addRoom)
      .openapi(communities.removeRoom, communityHandlers.removeRoom)
      // The spec's short forms of the two above, after /join, /leave, /add and /remove.
      .openapi(communities.addRoomShort, communityHandlers.addRoomShort)
      .openapi(communities.removeRoomShort, communityHandlers.removeRoomShort),
  );
  router.route(
    "/",
    createRouter()
      .openapi(events.adminList, eventHandlers.adminList)
      .openapi(events.adminGet, eventHandlers.adminGet)
      .openapi(events.listEvents, eventHandlers.listEvents)
      .openapi(events.createEvent, eventHandlers.createEvent)
      .openapi(events.upcomingEvents, eventHandlers.upcomingEvents)
      .openapi(events.eventBySlug, eventHandlers.eventBySlug)
      .openapi(events.getEvent, eventHandlers.getEvent)
      .openapi(events.updateEvent, eventHandlers.updateEvent)
      .openapi(events.deleteEvent, eventHandlers.deleteEvent),
  );
  router.route(
    "/",
    createRouter()
      .openapi(lists.publicRooms, listHandlers.publicRooms)
      .openapi(lists.promotedRooms, listHandlers.promotedRooms)
      .openapi(lists.privateCount, listHandlers.privateCount)
      .openapi(lists.roomByUuid, listHandlers.roomByUuid)
      .openapi(lists.multipleRooms, listHandlers.multipleRooms)
      .openapi(lists.myRooms, listHandlers.myRooms)
      .openapi(lists.ownedRooms, listHandlers.ownedRooms)
      .openapi(lists.roomsWithPasswords, listHandlers.roomsWithPasswords)
      .openapi(lists.favoriteRooms, listHandlers.favoriteRooms)
      .openapi(lists.recordRecent, listHandlers.recordRecent)
      .openapi(lists.recentRooms, listHandlers.recentRooms)
      .openapi(lists.friendsActivity, listHandlers.friendsActivity)
      .openapi(lists.recentlyVisited, listHandlers.recentlyVisited)
      .openapi(lists.discordRooms, listHandlers.discordRooms)
      .openapi(lists.serviceList, listHandlers.serviceList)
      .openapi(lists.serviceRoom, listHandlers.serviceRoom)
      .openapi(lists.adminRooms, listHandlers.adminRooms)
      .openapi(lists.adminRoom, listHandlers.adminRoom)
      // Last: `/rooms/{slug}` would otherwise answer for every fixed `/rooms/...` path above.
      .openapi(lists.roomBySlug, listHandlers.roomBySlug),
  );
  return router;
}
