import type { ChildProcess, StdioOptions } from "node:child_process";

export const APP_DIR: string;
export function wranglerBin(): string;
export interface WranglerDevOptions {
  port: number | string;
  /** The address to listen on (default 127.0.0.1; a container gives 0.0.0.0). */
  ip?: string;
  persistTo: string;
  vars?: Record<string, string | undefined>;
  secrets?: Record<string, string | undefined>;
  /** Globals replaced in the build (`--define KEY:VALUE`); tests only. */
  defines?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  detached?: boolean;
}
export function wranglerDevArgs(options: WranglerDevOptions): string[];
export function wranglerEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function spawnWranglerDev(options: WranglerDevOptions, stdio?: StdioOptions): ChildProcess;
