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

/** A setting a production edge must have: whether the environment lacks it, and the line that names it then. */
interface Requirement {
  lacks: (env: Env) => boolean;
  line: string;
}

const required = (name: string, why: string): Requirement => ({
  lacks: (env) => !set(env, name),
  line: `${name}: ${why}`,
});

/** Needed only where several edge processes serve the instance (not BOOTH_SINGLE_INSTANCE=true). */
const shared = ({ lacks, line }: Requirement): Requirement => ({
  lacks: (env) => !singleInstance(env) && lacks(env),
  line,
});

/** Every secret must come from the environment; in this order the missing ones are listed. */
const PRODUCTION_SETTINGS: Requirement[] = [
  required(
    "JWT_PRIVATE_KEY",
    "the private JWK (ES256) that signs every token, the same on every instance (npx tsx apps/edge/src/scripts/jwt-key.ts)",
  ),
  required(
    "BOOTH_SERVICE_SECRET",
    "the secret the edge and the live rooms share to sign their calls to each other, at least 32 characters (openssl rand -base64 48)",
  ),
  required("VAPID_PUBLIC_KEY", "the Web Push key pair (npx web-push generate-vapid-keys)"),
  required("VAPID_PRIVATE_KEY", "the Web Push key pair (npx web-push generate-vapid-keys)"),
  shared({
    lacks: (env) =>
      !set(env, "REDIS_URL") && !(set(env, "UPSTASH_REDIS_REST_URL") && set(env, "UPSTASH_REDIS_REST_TOKEN")),
    line: "REDIS_URL (or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN): the cache every instance shares for limits and codes; BOOTH_SINGLE_INSTANCE=true if only one instance runs",
  }),
  shared(
    required(
      "DATABASE_URL",
      "the PostgreSQL every instance shares; BOOTH_SINGLE_INSTANCE=true if only one instance runs (PGlite in DATA_DIR)",
    ),
  ),
  shared({
    lacks: (env) => !set(env, "S3_BUCKET"),
    line: "S3_BUCKET (with S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and, off AWS, S3_ENDPOINT): the object storage every instance and the job worker share for uploads and HLS; BOOTH_SINGLE_INSTANCE=true if one host keeps the files (DATA_DIR/storage)",
  }),
  {
    lacks: (env) => set(env, "ADMIN_EMAIL") !== set(env, "ADMIN_PASSWORD"),
    line: "ADMIN_EMAIL and ADMIN_PASSWORD: the first admin needs both (or neither)",
  },
];

/** What a production edge lacks to start, one line per setting. */
export const missingProductionSettings = (env: Env): string[] =>
  PRODUCTION_SETTINGS.filter((setting) => setting.lacks(env)).map((setting) => setting.line);

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
