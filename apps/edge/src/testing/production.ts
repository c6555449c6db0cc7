import { expect } from "vitest";

/** What a production instance of several edges refuses to start without: its secrets, a shared cache and database. */
export const SECRETS_CACHE_AND_DATABASE = [
  "JWT_PRIVATE_KEY",
  "BOOTH_SERVICE_SECRET",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
  "REDIS_URL",
  "DATABASE_URL",
] as const;

/** A refusal to start in production names each of `settings` in its list (`...without:  - NAME: ...  - NAME: ...`). */
export function expectSettingsListed(refusal: string, settings: readonly string[]) {
  for (const name of settings) expect(refusal).toContain(`  - ${name}`);
}
