/**
 * The analytics event names `POST /kinesis` accepts. The spec names about 70 topics and lists fourteen (pageView,
 * likedTrack, dislikedTrack, createdRoom, chatMessageSent, becameDj, tokenChange, consumablePurchased,
 * tokenBundleSelected, trackStartedPlaying, trackFailedToPlay, forcedLogout, loggedOut, updatedStageDesign); the rest
 * are the product's other user-visible steps, named the same way (past tense, camelCase).
 */
export const UserEvent = {
  // Session and account
  appOpened: "appOpened",
  pageView: "pageView",
  signedUp: "signedUp",
  loggedIn: "loggedIn",
  loggedOut: "loggedOut",
  forcedLogout: "forcedLogout",
  emailVerified: "emailVerified",
  phoneVerified: "phoneVerified",
  passwordReset: "passwordReset",
  accountDeactivated: "accountDeactivated",
  updatedProfile: "updatedProfile",
  changedAvatar: "changedAvatar",
  changedLanguage: "changedLanguage",
  connectedMusicProvider: "connectedMusicProvider",
  disconnectedMusicProvider: "disconnectedMusicProvider",
  // Rooms
  createdRoom: "createdRoom",
  updatedRoom: "updatedRoom",
  deletedRoom: "deletedRoom",
  joinedRoom: "joinedRoom",
  leftRoom: "leftRoom",
  favoritedRoom: "favoritedRoom",
  unfavoritedRoom: "unfavoritedRoom",
  sharedRoomLink: "sharedRoomLink",
  updatedStageDesign: "updatedStageDesign",
  pinnedMessage: "pinnedMessage",
  // The booth and playback
  becameDj: "becameDj",
  leftDjBooth: "leftDjBooth",
  skippedTrack: "skippedTrack",
  trackStartedPlaying: "trackStartedPlaying",
  trackPlayed15Seconds: "trackPlayed15Seconds",
  trackPlayed30Seconds: "trackPlayed30Seconds",
  trackFinishedPlaying: "trackFinishedPlaying",
  trackFailedToPlay: "trackFailedToPlay",
  previewLimitReached: "previewLimitReached",
  likedTrack: "likedTrack",
  dislikedTrack: "dislikedTrack",
  starredTrack: "starredTrack",
  playedAnimation: "playedAnimation",
  // Chat
  chatMessageSent: "chatMessageSent",
  chatMessageEdited: "chatMessageEdited",
  chatMessageDeleted: "chatMessageDeleted",
  chatReactionAdded: "chatReactionAdded",
  directMessageSent: "directMessageSent",
  reportedMessage: "reportedMessage",
  // Music library
  searchedSongs: "searchedSongs",
  createdCrate: "createdCrate",
  deletedCrate: "deletedCrate",
  addedTrackToCrate: "addedTrackToCrate",
  removedTrackFromCrate: "removedTrackFromCrate",
  reorderedCrate: "reorderedCrate",
  queuedTrack: "queuedTrack",
  importedPlaylist: "importedPlaylist",
  exportedCrate: "exportedCrate",
  uploadedTrack: "uploadedTrack",
  generatedSong: "generatedSong",
  // Social
  followedDj: "followedDj",
  unfollowedDj: "unfollowedDj",
  sentFriendInvitation: "sentFriendInvitation",
  acceptedFriendInvitation: "acceptedFriendInvitation",
  removedFriend: "removedFriend",
  blockedUser: "blockedUser",
  unblockedUser: "unblockedUser",
  openedNotification: "openedNotification",
  enabledPushNotifications: "enabledPushNotifications",
  // Tokens, shop and points
  tokenChange: "tokenChange",
  tokenBundleSelected: "tokenBundleSelected",
  checkoutStarted: "checkoutStarted",
  purchaseCompleted: "purchaseCompleted",
  purchaseFailed: "purchaseFailed",
  consumablePurchased: "consumablePurchased",
  voucherRedeemed: "voucherRedeemed",
  avatarUnlocked: "avatarUnlocked",
  pointsEarned: "pointsEarned",
  viewedSeasonRanking: "viewedSeasonRanking",
} as const;
export type UserEvent = (typeof UserEvent)[keyof typeof UserEvent];

/**
 * The live room's vocabulary (spec/live-protocol.md): client actions, server-side actions and server messages. Only
 * the live rooms record these, with a service token.
 */
export const SocketEvent = {
  joinRoom: "joinRoom",
  addDj: "addDj",
  removeDj: "removeDj",
  updateNextSong: "updateNextSong",
  skipSong: "skipSong",
  voteOnSong: "voteOnSong",
  playOneTimeAnimation: "playOneTimeAnimation",
  playSong: "playSong",
  nextSong: "nextSong",
  kickUserFromRoom: "kickUserFromRoom",
  kickUserGlobally: "kickUserGlobally",
  resetRoom: "resetRoom",
  updateRoomSettings: "updateRoomSettings",
  addUser: "addUser",
  removeUser: "removeUser",
  userJoined: "userJoined",
  userLeft: "userLeft",
  addedDj: "addedDj",
  removedDj: "removedDj",
  playedSong: "playedSong",
  updatedNextSong: "updatedNextSong",
  votedOnSong: "votedOnSong",
  lookedUpSong: "lookedUpSong",
  updatedRoomSettings: "updatedRoomSettings",
  updatedGuestPassword: "updatedGuestPassword",
  updatedUserData: "updatedUserData",
  updatedUserProfile: "updatedUserProfile",
  playedOneTimeAnimation: "playedOneTimeAnimation",
  kickedFromRoom: "kickedFromRoom",
  roomReset: "roomReset",
  chatMessage: "chatMessage",
} as const;
export type SocketEvent = (typeof SocketEvent)[keyof typeof SocketEvent];

export const USER_EVENT_NAMES = Object.values(UserEvent);
export const SOCKET_EVENT_NAMES = Object.values(SocketEvent);
export const EVENT_NAMES = [...USER_EVENT_NAMES, ...SOCKET_EVENT_NAMES] as [
  UserEvent | SocketEvent,
  ...(UserEvent | SocketEvent)[],
];
export type EventName = UserEvent | SocketEvent;

/** The stream an event belongs to, stored in `analytics_events.topic`. */
export const EventStream = { user: "user-events", socket: "socket-events" } as const;
export type EventStream = (typeof EventStream)[keyof typeof EventStream];

const SOCKET = new Set<string>(SOCKET_EVENT_NAMES);
export const streamOf = (name: EventName): EventStream => (SOCKET.has(name) ? EventStream.socket : EventStream.user);
