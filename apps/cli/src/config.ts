import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface Config {
  apiUrl?: string;
  /** The live rooms' base URL, for bots and live-room commands. */
  partyUrl?: string;
  token?: string;
  email?: string;
}

/** $XDG_CONFIG_HOME/booth/config.json, else ~/.config/booth/config.json. */
export const configPath = () => join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "booth", "config.json");

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

/** The API base URL: the --api flag, then BOOTH_API_URL, then the config file, then the local default. */
export const apiUrl = (flag: string | undefined, config: Config) =>
  flag ?? process.env.BOOTH_API_URL ?? config.apiUrl ?? "http://127.0.0.1:8787";

/** The live rooms' base URL: the --party flag, then BOOTH_PARTY_URL, then the config file, then the local default. */
export const partyUrl = (flag: string | undefined, config: Config) =>
  flag ?? process.env.BOOTH_PARTY_URL ?? config.partyUrl ?? "http://127.0.0.1:1999";
