import type { Context } from "hono";
import { addressBucket } from "./client-address.ts";
import type { AppEnv } from "./context.ts";
import { TOO_MANY_ATTEMPTS, tooManyRequests } from "./errors.ts";

/** Where one key stands against a limit after an attempt. */
export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the key's window ends and its attempts are forgotten. */
  resetSeconds: number;
}

/**
 * The headers of a refusal: Retry-After (RFC 9110) and the RateLimit-Limit / -Remaining / -Reset fields that
 * draft-ietf-httpapi-ratelimit-headers started and most APIs and clients read (Reset in seconds from now).
 */
export function limitHeaders(state: LimitState): Record<string, string> {
  return {
    "Retry-After": String(state.resetSeconds),
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(Math.max(0, state.remaining)),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}

/** Refuses with 429 when the state says the key has used up its window. */
export function refuseWhenExhausted(state: LimitState, message = TOO_MANY_ATTEMPTS) {
  if (!state.allowed) throw tooManyRequests(message, limitHeaders(state));
}

/** The shared limiter for `limit` attempts per `windowSeconds`; `key` names what is limited (an account, an address). */
export const limiter = (c: Context<AppEnv>, limit: number, windowSeconds: number) =>
  c.var.deps.cache.limiter(limit, windowSeconds);

/** Counts one attempt at an action against `key`; past `limit` in the window, 429 with Retry-After. */
export async function rateLimit(c: Context<AppEnv>, key: string, limit: number, windowSeconds: number) {
  refuseWhenExhausted(await limiter(c, limit, windowSeconds).consume(key));
}

/** A limit: attempts per window (seconds). */
export type Rule = readonly [points: number, windowSeconds: number];

/**
 * Guesses at one account's secret (a password, a code sent to it) or requests that reach its owner (links, texts):
 * counted tightly per (account, address) and loosely per account, so a stranger elsewhere runs out long before the
 * owner, who keeps their own allowance from their own address. Call `succeeded` when the guess was right: the pair's
 * count starts over and the account gets its attempt back.
 */
export async function accountAttempt(
  c: Context<AppEnv>,
  action: string,
  account: string,
  rules: { perAddress: Rule; perAccount: Rule },
) {
  const pairKey = `${action}:${account}|${addressBucket(c)}`;
  const accountKey = `${action}:${account}`;
  const pair = limiter(c, ...rules.perAddress);
  refuseWhenExhausted(await pair.consume(pairKey));
  const whole = limiter(c, ...rules.perAccount);
  refuseWhenExhausted(await whole.consume(accountKey));
  return {
    async succeeded() {
      await Promise.all([pair.reset(pairKey), whole.reward(accountKey)]);
    },
  };
}
