import type { UserRow } from "@booth/db/schema";
import type { ContextVariableMap } from "hono";
import type { TokenClaims } from "./tokens.ts";

/**
 * The app's dependencies as a request sees them (`c.var.deps`). deps.ts, the layer above lib, declares them into
 * Hono's `ContextVariableMap` (`deps: AppDeps`), so lib reads them without importing what lies above it.
 */
export type RequestDeps = ContextVariableMap["deps"];

/** An account as the routes see it: its row without the password hash (login and password changes read that themselves). */
export type User = Omit<UserRow, "passwordHash">;

export type AppEnv = {
  Variables: {
    requestId: string;
    /** Verified claims of the bearer token, or null when there is none or it does not verify. */
    auth: TokenClaims | null;
    /**
     * The account `uuid` names and whether a ban is in force on it now, or null for none: the user service reads it
     * (services/user/account-cache.ts); the request path sets it, and requireUser asks it.
     */
    readAccount: (uuid: string, now: Date) => Promise<{ user: User; banned: boolean } | null>;
  };
};
