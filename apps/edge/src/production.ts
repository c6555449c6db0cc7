type Env = Record<string, string | undefined>;

/** NODE_ENV=production or BOOTH_ENV=production: an instance open to the public, where nothing secret is made up. */
export const isProduction = (env: Env) => env.NODE_ENV === "production" || env.BOOTH_ENV === "production";

/** The operator's word that one edge process serves this instance, so its memory cache and PGlite are not shared. */
export const singleInstance = (env: Env) => env.BOOTH_SINGLE_INSTANCE === "true";

/** The demo catalogue and rooms: loaded by default on the embedded instance, in production only with SEED_DEMO=true. */
export const seedsDemo = (env: Env) => (isProduction(env) ? env.SEED_DEMO === "true" : env.SEED_DEMO !== "false");

/**
 * The local test checkout (purchases without money, when STRIPE_SECRET_KEY is unset): on by default on the embedded
 * instance, in production only with LOCAL_CHECKOUT=true. LOCAL_CHECKOUT=false turns it off anywhere.
 */
export const allowsLocalCheckout = (env: Env) =>
  env.LOCAL_CHECKOUT ? env.LOCAL_CHECKOUT === "true" : !isProduction(env);

const set = (env: Env, name: string) => Boolean(env[name]?.trim());

/** What a production edge lacks to start, one line per setting: every secret must come from the environment. */
export function missingProductionSettings(env: Env): string[] {
  const missing: string[] = [];
  if (!set(env, "JWT_PRIVATE_KEY"))
    missing.push(
      "JWT_PRIVATE_KEY: the private JWK (ES256) that signs every token, the same on every instance (npx tsx apps/edge/src/scripts/jwt-key.ts)",
    );
  if (!set(env, "BOOTH_SERVICE_SECRET"))
    missing.push(
      "BOOTH_SERVICE_SECRET: the secret the edge and the live rooms share to sign their calls to each other, at least 32 characters (openssl rand -base64 48)",
    );
  for (const name of ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"])
    if (!set(env, name)) missing.push(`${name}: the Web Push key pair (npx web-push generate-vapid-keys)`);
  if (!singleInstance(env)) {
    const upstash = set(env, "UPSTASH_REDIS_REST_URL") && set(env, "UPSTASH_REDIS_REST_TOKEN");
    if (!set(env, "REDIS_URL") && !upstash)
      missing.push(
        "REDIS_URL (or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN): the cache every instance shares for limits and codes; BOOTH_SINGLE_INSTANCE=true if only one instance runs",
      );
    if (!set(env, "DATABASE_URL"))
      missing.push(
        "DATABASE_URL: the PostgreSQL every instance shares; BOOTH_SINGLE_INSTANCE=true if only one instance runs (PGlite in DATA_DIR)",
      );
    if (!set(env, "S3_BUCKET"))
      missing.push(
        "S3_BUCKET (with S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and, off AWS, S3_ENDPOINT): the object storage every instance and the job worker share for uploads and HLS; BOOTH_SINGLE_INSTANCE=true if one host keeps the files (DATA_DIR/storage)",
      );
  }
  if (set(env, "ADMIN_EMAIL") !== set(env, "ADMIN_PASSWORD"))
    missing.push("ADMIN_EMAIL and ADMIN_PASSWORD: the first admin needs both (or neither)");
  return missing;
}

/** Throws one error naming every missing setting when a production instance lacks some; nothing otherwise. */
export function assertProductionSettings(env: Env) {
  if (!isProduction(env)) return;
  const missing = missingProductionSettings(env);
  if (missing.length === 0) return;
  throw new ProductionSettingsError(
    `Booth is in production mode (NODE_ENV or BOOTH_ENV is production) and does not start without:\n${missing
      .map((line) => `  - ${line}`)
      .join("\n")}`,
  );
}

export class ProductionSettingsError extends Error {
  override name = "ProductionSettingsError";
}

/** For the entries: a production instance missing settings stops with the one message, without a stack trace. */
export function exitOnMissingSettings(err: unknown): never {
  if (!(err instanceof ProductionSettingsError)) throw err;
  console.error(err.message);
  process.exit(1);
}
