/** The audit service's front door: what other services may call (decision 0021). */

/** Writes a global moderation step to the moderation log, in the caller's transaction. */
export { logModeration } from "./moderation-log.ts";
