import type { AppDeps } from "../deps.ts";
import type { TokenClaims } from "./tokens.ts";

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    requestId: string;
    /** Verified claims of the bearer token, or null when there is none or it does not verify. */
    auth: TokenClaims | null;
  };
};
