import type { ChildProcess, StdioOptions } from "node:child_process";

export const APP_DIR: string;
export function wranglerBin(): string;
/** The rooms' Worker configuration (wrangler.jsonc). */
export const ROOMS_CONFIG: string;
/** The rooms' compatibility date and flags, as their wrangler.jsonc sets them. */
export function roomsRuntime(): { compatibilityDate: string; compatibilityFlags: string[] };
export interface WranglerDevOptions {
  port: number | string;
  /** The address to listen on (default 127.0.0.1; a container gives 0.0.0.0). */
  ip?: string;
  persistTo: string;
  vars?: Record<string, string | undefined>;
  secrets?: Record<string, string | undefined>;
  /** Globals replaced in the build (`--define KEY:VALUE`); tests only. */
  defines?: Record<string, string>;
  /** Another Worker's configuration than the rooms' (the rooms bench's bare Durable Object). */
  config?: string;
  /** Where the runtime's inspector listens (a free port unless given). */
  inspectorPort?: number;
  /** More arguments for wrangler dev. */
  extra?: string[];
  env?: NodeJS.ProcessEnv;
  detached?: boolean;
}
export function wranglerDevArgs(options: WranglerDevOptions): string[];
export function wranglerEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function spawnWranglerDev(options: WranglerDevOptions, stdio?: StdioOptions): ChildProcess;
