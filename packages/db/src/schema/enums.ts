// Enumerations shared by the schema, the edge's validators and the SDK. Stored as text columns so adding a value
// never needs a type migration.
import { type EnumValue, enumOf } from "@booth/sdk/enumeration";

export { values } from "@booth/sdk/enumeration";

export const EmailType = enumOf("personal", "work", "payment", "spotify", "discord");
export type EmailType = EnumValue<typeof EmailType>;

export const EmailStatus = enumOf("PENDING_VERIFICATION", "VERIFIED", "DELETED", "CREATED_BY_ADMIN");
export type EmailStatus = EnumValue<typeof EmailStatus>;

export const UserRole = enumOf(
  "globalModerator",
  "admin",
  "moderator",
  "staff",
  "promoter",
  "user",
  "superUser",
  "bot",
);
export type UserRole = EnumValue<typeof UserRole>;

export const Badge = enumOf("VERIFIED", "PLATINUM", "DOUBLE_PLATINUM", "JQBX", "STAFF", "IDENTITY_VERIFIED");
export type Badge = EnumValue<typeof Badge>;

export const Capability = enumOf("uploadMusic", "promoteRoom");
export type Capability = EnumValue<typeof Capability>;

export const AuthChannel = enumOf("sms", "whatsapp");
export type AuthChannel = EnumValue<typeof AuthChannel>;

export const IdentityChannel = enumOf("sms");
export type IdentityChannel = EnumValue<typeof IdentityChannel>;

export const PhoneValidationStatus = enumOf("VALID", "INVALID", "VOIP", "VALIDATION_ERROR");
export type PhoneValidationStatus = EnumValue<typeof PhoneValidationStatus>;

export const ImageType = enumOf("profilePicture", "coverPicture", "roomPoster");
export type ImageType = EnumValue<typeof ImageType>;

export const VoucherStatus = enumOf("PENDING", "REDEEMED", "REVOKED");
export type VoucherStatus = EnumValue<typeof VoucherStatus>;

export const SanctionType = enumOf("kick", "ban", "temporaryBan");
export type SanctionType = EnumValue<typeof SanctionType>;

export const DeactivationStatus = enumOf("PENDING", "CANCELLED", "DEACTIVATED");
export type DeactivationStatus = EnumValue<typeof DeactivationStatus>;

export const CodePurpose = enumOf(
  "emailVerification",
  "mobileAuth",
  "identityVerification",
  "magicLink",
  "passwordReset",
);
export type CodePurpose = EnumValue<typeof CodePurpose>;

export const OutboxChannel = enumOf("email", "sms", "whatsapp");
export type OutboxChannel = EnumValue<typeof OutboxChannel>;

export const DevicePlatform = enumOf("ios", "android", "web");
export type DevicePlatform = EnumValue<typeof DevicePlatform>;

export const FriendInvitationStatus = enumOf("pending", "accepted", "rejected");
export type FriendInvitationStatus = EnumValue<typeof FriendInvitationStatus>;

export const PushStatus = enumOf("queued", "sent", "failed");
export type PushStatus = EnumValue<typeof PushStatus>;

export const ModerationActionType = enumOf(
  "banUser",
  "kickUser",
  "grantRole",
  "removeRole",
  "globalKick",
  "globalBan",
  "globalUnBan",
  "temporaryBan",
);
export type ModerationActionType = EnumValue<typeof ModerationActionType>;

export const CrateKind = enumOf("default", "queue", "likes");
export type CrateKind = EnumValue<typeof CrateKind>;

export const ImportStatus = enumOf("IN_PROGRESS", "FAILED", "COMPLETE");
export type ImportStatus = EnumValue<typeof ImportStatus>;

export const SongUploadStatus = enumOf(
  "PENDING_UPLOAD",
  "VALID_FILE_TYPE",
  "MISSING_METADATA",
  "VERIFIED",
  "UNVERIFIED",
  "VERIFICATION_ERROR",
  "VERIFICATION_POSTPONED",
);
export type SongUploadStatus = EnumValue<typeof SongUploadStatus>;

export const TranscodingStatus = enumOf(
  "WAITING_FOR_TRANSCODING",
  "TRANSCODING_IN_PROGRESS",
  "TRANSCODING_SUCCEED",
  "TRANSCODING_ERROR",
);
export type TranscodingStatus = EnumValue<typeof TranscodingStatus>;

export const TokenAccountStatus = enumOf("active", "disabled");
export type TokenAccountStatus = EnumValue<typeof TokenAccountStatus>;

export const TokenTransactionType = enumOf("credit", "hold", "commit", "voided");
export type TokenTransactionType = EnumValue<typeof TokenTransactionType>;

export const ConsumableDisplayType = enumOf("cover", "small");
export type ConsumableDisplayType = EnumValue<typeof ConsumableDisplayType>;

export const AvatarStatus = enumOf("PUBLIC", "PRIVATE", "SEASON_AWARD", "SUBSCRIBER_ONLY");
export type AvatarStatus = EnumValue<typeof AvatarStatus>;

export const AvatarAssignmentType = enumOf("MANUAL", "SEASON_AWARD", "PURCHASED");
export type AvatarAssignmentType = EnumValue<typeof AvatarAssignmentType>;

export const RoomType = enumOf("PUBLIC", "PRIVATE");
export type RoomType = EnumValue<typeof RoomType>;

export const RoomDesign = enumOf(
  "BARN",
  "BARN_UA",
  "CHAT_ONLY",
  "CLUB",
  "CLUB_UA",
  "FERRY_BUILDING",
  "FESTIVAL",
  "STADIUM",
  "THEATER",
  "TOMORROWLAND",
  "UNDERGROUND",
  "YACHT",
);
export type RoomDesign = EnumValue<typeof RoomDesign>;

/** Accounts a user linked at another service: Discord (sign-in), music providers (their OAuth tokens). */
export const LinkedProvider = enumOf("discord", "spotify", "youtube", "soundcloud", "soundcloudMobile", "apple");
export type LinkedProvider = EnumValue<typeof LinkedProvider>;

/** one_time products sell a token bundle (the merch service's bundle whose productId is the product's id). */
export const PaymentType = enumOf("one_time", "recurring");
export type PaymentType = EnumValue<typeof PaymentType>;

export const BillingInterval = enumOf("month", "year");
export type BillingInterval = EnumValue<typeof BillingInterval>;

/** Who took the money: Stripe, the App Store, or the embedded local checkout (no money, no provider configured). */
export const PaymentProvider = enumOf("stripe", "apple", "local");
export type PaymentProvider = EnumValue<typeof PaymentProvider>;

export const CheckoutMode = enumOf("payment", "subscription");
export type CheckoutMode = EnumValue<typeof CheckoutMode>;

export const CheckoutStatus = enumOf("open", "completed", "expired");
export type CheckoutStatus = EnumValue<typeof CheckoutStatus>;

/** Stripe's subscription statuses; App Store states are mapped onto them. */
export const SubscriptionStatus = enumOf(
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
);
export type SubscriptionStatus = EnumValue<typeof SubscriptionStatus>;

/** The live room's own enumerations (`@booth/sdk/live`): the schema stores what the room speaks. */
export { DjType, RoomRoleName as RoomRole } from "@booth/sdk/live/enums";
