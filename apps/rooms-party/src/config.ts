/**
 * The live rooms' settings (@booth/sdk/settings, decision 0022): the Worker's variables and secrets (wrangler.jsonc,
 * `wrangler secret put`), which Workers hand to each request (`settingsOf`, read once per env object), and those of
 * scripts/dev.mjs, which runs them under `wrangler dev` and stops before starting on a bad or missing one.
 * docs/configuration.md is generated from `settingsSchema` and `renamedSettings` (npm run docs:config).
 *
 * It imports nothing but the settings' module: scripts/dev.mjs loads it with plain Node, stripping its types.
 */
import {
  deploymentSettings,
  type Environment,
  edgeUrlSetting,
  type Renamed,
  readSettings,
  requiredInProduction,
  setting,
  z,
} from "@booth/sdk/settings";

export const settingsSchema = z
  .object({
    ...deploymentSettings,
    BOOTH_EDGE_URL: edgeUrlSetting(
      "Where the rooms reach the edge (its keys, and the calls they make); deployed, its public address.",
    ),
    BOOTH_SERVICE_SECRET: setting
      .text()
      .optional()
      .describe(
        "The secret shared with the edge, that signs the rooms' calls to it; required in production, else the one the edge keeps in DATA_DIR/service-secret.",
      ),
    BOOTH_PRESENCE_GRACE_MS: setting
      .number({ min: 1 })
      .optional()
      .describe("How long a user without a connection keeps their place and seat, in milliseconds (20000)."),
    BOOTH_TIME_SCALE: setting
      .number({ min: 0.001 })
      .optional()
      .describe("Songs last their duration times this (0.1 plays a 3-minute song in 18 s, for demos; 1)."),
    SENTRY_DSN: setting.text().optional().describe("The Sentry project the rooms report their errors to; unset, none."),
    SENTRY_ENVIRONMENT: setting.text().default("production").describe("The deployment's name in Sentry."),
    PORT: setting
      .integer({ max: 65535 })
      .default(1999)
      .describe("wrangler dev's port (the root's npm start sets it from PARTY_PORT)."),
    PARTY_HOST: setting
      .text()
      .default("127.0.0.1")
      .describe("The address wrangler dev listens on (0.0.0.0 in a container)."),
    DATA_DIR: setting
      .text()
      .default(".data")
      .describe(
        "Where the edge's service secret is read from, and room storage kept (relative to where npm was started).",
      ),
    PARTY_PERSIST_DIR: setting.text().optional().describe("Where wrangler dev keeps room storage (DATA_DIR/party)."),
    TOKEN_WAIT_SECONDS: setting
      .integer()
      .default(90)
      .describe("How long wrangler dev's start waits for the edge to write DATA_DIR/service-secret."),
  })
  .check(requiredInProduction({ BOOTH_SERVICE_SECRET: "the same value as the edge's" }));

/** Old names, still read (with a warning naming the new one): none yet. */
export const renamedSettings: Renamed = {};

export type RoomsSettings = z.output<typeof settingsSchema>;

/** The settings of `environment`; throws a SettingsError naming every bad or missing one. */
export const readRoomsSettings = (environment: Environment) =>
  readSettings("rooms-party", settingsSchema, environment, { renamed: renamedSettings });

const read = new WeakMap<object, RoomsSettings>();
/** The Worker's settings, from the env it is handed (bindings and all), read once per env object. */
export function settingsOf(env: object): RoomsSettings {
  let settings = read.get(env);
  if (!settings) {
    settings = readRoomsSettings(env as Environment);
    read.set(env, settings);
  }
  return settings;
}
