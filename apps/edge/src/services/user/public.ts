/** The user service's front door: what other services, the app, bootstrap and the seed may call (decision 0021). */

/** The account a token names and whether a ban is in force on it (the request path gives it to requireUser). */
export { readAccount } from "./account-cache.ts";
/** Accounts: create one (in the caller's `tx`), an email address as stored, a one-time link's token. */
export { createAccount, normalizeEmail } from "./accounts.ts";
/** Agora voice tokens: the contract (the handler is the room service's), its messages, lifetime and token maker. */
export * as agoraRoutes from "./agora.routes.ts";
export { AGORA_MESSAGES, AGORA_TOKEN_SECONDS, rtcToken } from "./agora.ts";
/** The users a CometChat conversation needs, as CometChat takes them. */
export { chatUsers } from "./chat-users.ts";
export { linkToken } from "./codes.ts";
/** Discord: Booth's app settings, the Discord user behind an access token, their guilds, who linked a Discord user. */
export {
  discordGuildIds,
  discordSettings,
  discordUser,
  explicitAudioAllowed,
  hasDiscordLink,
  linkedUserUuid,
} from "./discord.ts";
/** Room posters are images: the room service stores and forgets their rows here. */
export { addRoomPoster, removeRoomPoster } from "./images.ts";
/** The live rooms a user is in: tell them of a change about the user, or end the user's presence in them. */
export { kickFromLiveRooms, LIVE_KICK_REASONS, tellLiveRoomsOf } from "./live-rooms.ts";
/** Public profiles: the view, its schema, several at once, a page of linked users, how many users there are. */
export { linkedProfilesPage, PublicProfileSchema, profilesOf, usersTotal } from "./public-profiles.ts";
/** Bans: whether one is in force on a user, as a condition or a row. */
export { activeBan, banInForce } from "./sanctions.ts";
