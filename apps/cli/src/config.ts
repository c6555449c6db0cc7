import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { type Environment, type Renamed, readSettings, setting, z } from "@booth/sdk/settings";

/**
 * The CLI's settings from the environment (@booth/sdk/settings, decision 0022), read once, at the first command that
 * needs them: a bad one fails the command naming them all, before any request. Flags win over them, and they over the
 * config file. docs/configuration.md is generated from `settingsSchema` and `renamedSettings` (npm run docs:config).
 */
export const settingsSchema = z.object({
  BOOTH_EDGE_URL: setting
    .url()
    .optional()
    .describe("The edge the commands talk to (after --api; before the config file's, then http://127.0.0.1:8787)."),
  BOOTH_PARTY_URL: setting
    .url()
    .optional()
    .describe(
      "The live rooms bots and live-room commands join (after --party; before the config file's, then http://127.0.0.1:1999).",
    ),
  BOOTH_PASSWORD: setting.text().optional().describe("booth login's password, when --password is not given."),
  BOOTH_NEW_PASSWORD: setting
    .text()
    .optional()
    .describe("booth users create's password, when --password is not given."),
  BOOTH_BOT_TOKEN: setting
    .text()
    .optional()
    .describe("booth bot run's token, when --token is not given (else the signed-in one)."),
  BOOTH_DEMO_PASSWORD: setting
    .text()
    .default("booth-demo-password")
    .describe("booth seed's password for the demo users, when --password is not given."),
  DISCORD_BOT_TOKEN: setting
    .text()
    .optional()
    .describe("The bot token of Booth's Discord application: booth discord register-commands registers with it."),
  DISCORD_APPLICATION_ID: setting
    .text()
    .optional()
    .describe("The id of Booth's Discord application, whose commands booth discord register-commands registers."),
  DISCORD_API_URL: setting
    .url()
    .default("https://discord.com/api/v10")
    .describe("Discord's API address, where booth discord register-commands registers the bot's commands."),
  XDG_CONFIG_HOME: setting
    .text()
    .optional()
    .describe("The folder of the config file's booth/config.json (default ~/.config)."),
});

/** Old names, still read (with a warning on stderr naming the new one). */
export const renamedSettings: Renamed = { BOOTH_API_URL: "BOOTH_EDGE_URL" };

export type CliSettings = z.output<typeof settingsSchema>;

/** The settings of `environment`; throws a SettingsError naming every bad one. */
export const readCliSettings = (environment: Environment) =>
  readSettings("booth", settingsSchema, environment, { renamed: renamedSettings });

let settings: CliSettings | undefined;
/** This process's settings, read at the first call. */
export function cliSettings(): CliSettings {
  settings ??= readCliSettings(process.env);
  return settings;
}

export interface Config {
  apiUrl?: string;
  /** The live rooms' base URL, for bots and live-room commands. */
  partyUrl?: string;
  token?: string;
  email?: string;
}

/** $XDG_CONFIG_HOME/booth/config.json, else ~/.config/booth/config.json. */
export const configPath = () =>
  join(cliSettings().XDG_CONFIG_HOME ?? join(homedir(), ".config"), "booth", "config.json");

export async function readConfig(): Promise<Config> {
  try {
    return JSON.parse(await readFile(configPath(), "utf8")) as Config;
  } catch {
    return {};
  }
}

/** Writes the config readable by its owner only: it holds a token. */
export async function writeConfig(config: Config) {
  const file = configPath();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

export const forgetConfig = () => rm(configPath(), { force: true });

/** The API base URL: the --api flag, then BOOTH_EDGE_URL, then the config file, then the local default. */
export const apiUrl = (flag: string | undefined, config: Config) =>
  flag ?? cliSettings().BOOTH_EDGE_URL ?? config.apiUrl ?? "http://127.0.0.1:8787";

/** The live rooms' base URL: the --party flag, then BOOTH_PARTY_URL, then the config file, then the local default. */
export const partyUrl = (flag: string | undefined, config: Config) =>
  flag ?? cliSettings().BOOTH_PARTY_URL ?? config.partyUrl ?? "http://127.0.0.1:1999";
