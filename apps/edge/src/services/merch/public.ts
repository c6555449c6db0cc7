/** The merch service's front door: what other services may call (decision 0021). Token moves take the caller's `tx`. */

/** Avatars: give one to users, refuse one a user may not wear, give or take back the subscriber-only ones. */
export { assignAvatar, checkWearable, setSubscriberAvatars } from "./avatars.ts";
/** Token accounts: open one (refused, or the existing one answered, when the user has one), find one. */
/** Token moves inside one ledger transaction: credit, hold, then commit or void the hold, name what a move paid for. */
export {
  ACCOUNT_NOT_FOUND,
  credit,
  findAccount,
  hold,
  inLedger,
  openTokenAccount,
  referTransaction,
  resolveHold,
} from "./ledger.ts";
