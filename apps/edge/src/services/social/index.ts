import { createRouter } from "../../lib/openapi.ts";
import * as blockedUserHandlers from "./blocked-users.handlers.ts";
import * as blockedUsers from "./blocked-users.routes.ts";
import * as contactHandlers from "./contacts.handlers.ts";
import * as contacts from "./contacts.routes.ts";
import * as deviceHandlers from "./devices.handlers.ts";
import * as devices from "./devices.routes.ts";
import * as directMessageHandlers from "./direct-messages.handlers.ts";
import * as directMessages from "./direct-messages.routes.ts";
import * as djFanHandlers from "./dj-fans.handlers.ts";
import * as djFans from "./dj-fans.routes.ts";
import * as friendHandlers from "./friends.handlers.ts";
import * as friends from "./friends.routes.ts";
import * as notificationHandlers from "./notifications.handlers.ts";
import * as notifications from "./notifications.routes.ts";
import * as webPushHandlers from "./web-push.handlers.ts";
import * as webPush from "./web-push.routes.ts";

/** The social service's routes, in the order Hono matches them (one chained router per resource, mounted in order). */
export function socialService() {
  const djFanRoutes = createRouter()
    .openapi(djFans.follow, djFanHandlers.follow)
    .openapi(djFans.followedDjs, djFanHandlers.followedDjs)
    .openapi(djFans.fansOfDj, djFanHandlers.fansOfDj)
    .openapi(djFans.fansOfDjLegacy, djFanHandlers.fansOfDjLegacy)
    .openapi(djFans.djsFollowed, djFanHandlers.djsFollowed)
    .openapi(djFans.fanCounts, djFanHandlers.fanCounts)
    .openapi(djFans.fanLink, djFanHandlers.fanLink)
    .openapi(djFans.adminFanLinks, djFanHandlers.adminFanLinks)
    .openapi(djFans.unfollow, djFanHandlers.unfollow)
    .openapi(djFans.fanDevices, djFanHandlers.fanDevices)
    .openapi(djFans.adminDjs, djFanHandlers.adminDjs)
    .openapi(djFans.adminDj, djFanHandlers.adminDj);

  const friendRoutes = createRouter()
    .openapi(friends.invite, friendHandlers.invite)
    .openapi(friends.userInvitations, friendHandlers.userInvitations)
    .openapi(friends.invitationsReceived, friendHandlers.invitationsReceived)
    .openapi(friends.invitationsSent, friendHandlers.invitationsSent)
    .openapi(friends.deleteInvitation, friendHandlers.deleteInvitation)
    .openapi(friends.handleInvitation, friendHandlers.handleInvitation)
    .openapi(friends.friendsOf, friendHandlers.friendsOf)
    .openapi(friends.friendUuids, friendHandlers.friendUuids)
    .openapi(friends.friendship, friendHandlers.friendship)
    .openapi(friends.unfriend, friendHandlers.unfriend);

  const blockedUserRoutes = createRouter()
    .openapi(blockedUsers.block, blockedUserHandlers.block)
    .openapi(blockedUsers.blockedUsers, blockedUserHandlers.blockedUsers)
    .openapi(blockedUsers.blockedUser, blockedUserHandlers.blockedUser)
    .openapi(blockedUsers.unblock, blockedUserHandlers.unblock);

  const contactRoutes = createRouter()
    .openapi(contacts.upload, contactHandlers.upload)
    .openapi(contacts.addOne, contactHandlers.addOne)
    .openapi(contacts.ownContacts, contactHandlers.ownContacts)
    .openapi(contacts.clearContacts, contactHandlers.clearContacts)
    .openapi(contacts.adminContacts, contactHandlers.adminContacts)
    .openapi(contacts.matchingContacts, contactHandlers.matchingContacts)
    .openapi(contacts.matchingFriends, contactHandlers.matchingFriends);

  const deviceRoutes = createRouter()
    .openapi(devices.register, deviceHandlers.register)
    .openapi(devices.forgetByToken, deviceHandlers.forgetByToken)
    .openapi(devices.forgetUserDevice, deviceHandlers.forgetUserDevice)
    .openapi(devices.userDevice, deviceHandlers.userDevice)
    .openapi(devices.userDevices, deviceHandlers.userDevices);

  const notificationRoutes = createRouter()
    .openapi(notifications.toTokens, notificationHandlers.toTokens)
    .openapi(notifications.toTokensByStaff, notificationHandlers.toTokensByStaff)
    .openapi(notifications.silentToTokens, notificationHandlers.silentToTokens)
    .openapi(notifications.toUser, notificationHandlers.toUser)
    .openapi(notifications.toUserByStaff, notificationHandlers.toUserByStaff)
    .openapi(notifications.silentToUserByStaff, notificationHandlers.silentToUserByStaff)
    .openapi(notifications.mobileCustomMessage, notificationHandlers.mobileCustomMessage)
    .openapi(notifications.toAllDevices, notificationHandlers.toAllDevices)
    .openapi(notifications.toRoomUsers, notificationHandlers.toRoomUsers)
    .openapi(notifications.notifyDjFans, notificationHandlers.notifyDjFans)
    .openapi(notifications.djFansCheck, notificationHandlers.djFansCheck)
    .openapi(notifications.messageFriends, notificationHandlers.messageFriends)
    .openapi(notifications.messageFromRoom, notificationHandlers.messageFromRoom)
    .openapi(notifications.roomUsersCheck, notificationHandlers.roomUsersCheck);

  const webPushRoutes = createRouter()
    .openapi(webPush.publicKey, webPushHandlers.publicKey)
    .openapi(webPush.subscribe, webPushHandlers.subscribe)
    .openapi(webPush.unsubscribe, webPushHandlers.unsubscribe)
    .openapi(webPush.pushToUsers, webPushHandlers.pushToUsers);

  // Fixed paths (/direct-messages/conversations, /unread, /events) before the parametrised ones.
  const directMessageRoutes = createRouter()
    .openapi(directMessages.conversations, directMessageHandlers.conversations)
    .openapi(directMessages.unread, directMessageHandlers.unread)
    .openapi(directMessages.events, directMessageHandlers.events)
    .openapi(directMessages.conversationWith, directMessageHandlers.conversationWith)
    .openapi(directMessages.send, directMessageHandlers.send)
    .openapi(directMessages.messages, directMessageHandlers.messages)
    .openapi(directMessages.markRead, directMessageHandlers.markRead);

  return createRouter()
    .route("/", djFanRoutes)
    .route("/", friendRoutes)
    .route("/", blockedUserRoutes)
    .route("/", contactRoutes)
    .route("/", deviceRoutes)
    .route("/", notificationRoutes)
    .route("/", webPushRoutes)
    .route("/", directMessageRoutes);
}
