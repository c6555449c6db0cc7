// Enumerations shared by the schema, the edge's validators and the SDK. Stored as text columns so adding a value
// never needs a type migration.
export const EmailType = {
  personal: "personal",
  work: "work",
  payment: "payment",
  spotify: "spotify",
  discord: "discord",
} as const;
export type EmailType = (typeof EmailType)[keyof typeof EmailType];

export const EmailStatus = {
  PENDING_VERIFICATION: "PENDING_VERIFICATION",
  VERIFIED: "VERIFIED",
  DELETED: "DELETED",
  CREATED_BY_ADMIN: "CREATED_BY_ADMIN",
} as const;
export type EmailStatus = (typeof EmailStatus)[keyof typeof EmailStatus];

export const UserRole = {
  globalModerator: "globalModerator",
  admin: "admin",
  moderator: "moderator",
  staff: "staff",
  promoter: "promoter",
  user: "user",
  superUser: "superUser",
  bot: "bot",
} as const;
export type UserRole = (typeof UserRole)[keyof typeof UserRole];

export const Badge = {
  VERIFIED: "VERIFIED",
  PLATINUM: "PLATINUM",
  DOUBLE_PLATINUM: "DOUBLE_PLATINUM",
  JQBX: "JQBX",
  STAFF: "STAFF",
  IDENTITY_VERIFIED: "IDENTITY_VERIFIED",
} as const;
export type Badge = (typeof Badge)[keyof typeof Badge];

export const Capability = { uploadMusic: "uploadMusic", promoteRoom: "promoteRoom" } as const;
export type Capability = (typeof Capability)[keyof typeof Capability];

export const AuthChannel = { sms: "sms", whatsapp: "whatsapp" } as const;
export type AuthChannel = (typeof AuthChannel)[keyof typeof AuthChannel];

export const IdentityChannel = { sms: "sms" } as const;
export type IdentityChannel = (typeof IdentityChannel)[keyof typeof IdentityChannel];

export const PhoneValidationStatus = {
  VALID: "VALID",
  INVALID: "INVALID",
  VOIP: "VOIP",
  VALIDATION_ERROR: "VALIDATION_ERROR",
} as const;
export type PhoneValidationStatus = (typeof PhoneValidationStatus)[keyof typeof PhoneValidationStatus];

export const ImageType = {
  profilePicture: "profilePicture",
  coverPicture: "coverPicture",
  roomPoster: "roomPoster",
} as const;
export type ImageType = (typeof ImageType)[keyof typeof ImageType];

export const VoucherStatus = { PENDING: "PENDING", REDEEMED: "REDEEMED", REVOKED: "REVOKED" } as const;
export type VoucherStatus = (typeof VoucherStatus)[keyof typeof VoucherStatus];

export const SanctionType = { kick: "kick", ban: "ban", temporaryBan: "temporaryBan" } as const;
export type SanctionType = (typeof SanctionType)[keyof typeof SanctionType];

export const DeactivationStatus = { PENDING: "PENDING", CANCELLED: "CANCELLED", DEACTIVATED: "DEACTIVATED" } as const;
export type DeactivationStatus = (typeof DeactivationStatus)[keyof typeof DeactivationStatus];

export const CodePurpose = {
  emailVerification: "emailVerification",
  mobileAuth: "mobileAuth",
  identityVerification: "identityVerification",
  magicLink: "magicLink",
  passwordReset: "passwordReset",
} as const;
export type CodePurpose = (typeof CodePurpose)[keyof typeof CodePurpose];

export const OutboxChannel = { email: "email", sms: "sms", whatsapp: "whatsapp" } as const;
export type OutboxChannel = (typeof OutboxChannel)[keyof typeof OutboxChannel];

export const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

export const DevicePlatform = { ios: "ios", android: "android", web: "web" } as const;
export type DevicePlatform = (typeof DevicePlatform)[keyof typeof DevicePlatform];

export const FriendInvitationStatus = { pending: "pending", accepted: "accepted", rejected: "rejected" } as const;
export type FriendInvitationStatus = (typeof FriendInvitationStatus)[keyof typeof FriendInvitationStatus];

export const PushStatus = { queued: "queued", sent: "sent", failed: "failed" } as const;
export type PushStatus = (typeof PushStatus)[keyof typeof PushStatus];

export const ModerationActionType = {
  banUser: "banUser",
  kickUser: "kickUser",
  grantRole: "grantRole",
  removeRole: "removeRole",
  globalKick: "globalKick",
  globalBan: "globalBan",
  globalUnBan: "globalUnBan",
  temporaryBan: "temporaryBan",
} as const;
export type ModerationActionType = (typeof ModerationActionType)[keyof typeof ModerationActionType];

export const CrateKind = { default: "default", queue: "queue", likes: "likes" } as const;
export type CrateKind = (typeof CrateKind)[keyof typeof CrateKind];

export const ImportStatus = { IN_PROGRESS: "IN_PROGRESS", FAILED: "FAILED", COMPLETE: "COMPLETE" } as const;
export type ImportStatus = (typeof ImportStatus)[keyof typeof ImportStatus];

export const SongUploadStatus = {
  PENDING_UPLOAD: "PENDING_UPLOAD",
  VALID_FILE_TYPE: "VALID_FILE_TYPE",
  MISSING_METADATA: "MISSING_METADATA",
  VERIFIED: "VERIFIED",
  UNVERIFIED: "UNVERIFIED",
  VERIFICATION_ERROR: "VERIFICATION_ERROR",
  VERIFICATION_POSTPONED: "VERIFICATION_POSTPONED",
} as const;
export type SongUploadStatus = (typeof SongUploadStatus)[keyof typeof SongUploadStatus];

export const TranscodingStatus = {
  WAITING_FOR_TRANSCODING: "WAITING_FOR_TRANSCODING",
  TRANSCODING_IN_PROGRESS: "TRANSCODING_IN_PROGRESS",
  TRANSCODING_SUCCEED: "TRANSCODING_SUCCEED",
  TRANSCODING_ERROR: "TRANSCODING_ERROR",
} as const;
export type TranscodingStatus = (typeof TranscodingStatus)[keyof typeof TranscodingStatus];

export const TokenAccountStatus = { active: "active", disabled: "disabled" } as const;
export type TokenAccountStatus = (typeof TokenAccountStatus)[keyof typeof TokenAccountStatus];

export const TokenTransactionType = { credit: "credit", hold: "hold", commit: "commit", voided: "voided" } as const;
export type TokenTransactionType = (typeof TokenTransactionType)[keyof typeof TokenTransactionType];

export const ConsumableDisplayType = { cover: "cover", small: "small" } as const;
export type ConsumableDisplayType = (typeof ConsumableDisplayType)[keyof typeof ConsumableDisplayType];

export const AvatarStatus = {
  PUBLIC: "PUBLIC",
  PRIVATE: "PRIVATE",
  SEASON_AWARD: "SEASON_AWARD",
  SUBSCRIBER_ONLY: "SUBSCRIBER_ONLY",
} as const;
export type AvatarStatus = (typeof AvatarStatus)[keyof typeof AvatarStatus];

export const AvatarAssignmentType = { MANUAL: "MANUAL", SEASON_AWARD: "SEASON_AWARD", PURCHASED: "PURCHASED" } as const;
export type AvatarAssignmentType = (typeof AvatarAssignmentType)[keyof typeof AvatarAssignmentType];

export const RoomType = { PUBLIC: "PUBLIC", PRIVATE: "PRIVATE" } as const;
export type RoomType = (typeof RoomType)[keyof typeof RoomType];

export const RoomDesign = {
  BARN: "BARN",
  BARN_UA: "BARN_UA",
  CHAT_ONLY: "CHAT_ONLY",
  CLUB: "CLUB",
  CLUB_UA: "CLUB_UA",
  FERRY_BUILDING: "FERRY_BUILDING",
  FESTIVAL: "FESTIVAL",
  STADIUM: "STADIUM",
  THEATER: "THEATER",
  TOMORROWLAND: "TOMORROWLAND",
  UNDERGROUND: "UNDERGROUND",
  YACHT: "YACHT",
} as const;
export type RoomDesign = (typeof RoomDesign)[keyof typeof RoomDesign];

/** The live room's own enumerations (`@booth/sdk/live`): the schema stores what the room speaks. */
export { DjType, RoomRoleName as RoomRole } from "@booth/sdk/live/enums";
