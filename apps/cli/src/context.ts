import { BoothApiError, createBoothClient } from "@booth/sdk";
import type { Command } from "commander";
import { apiUrl, type Config, readConfig } from "./config.ts";

export interface Context {
  config: Config;
  baseUrl: string;
  client: ReturnType<typeof createBoothClient>;
  json: boolean;
  print(value: unknown, human?: () => string): void;
}

/** What every command needs: the config, a client for the API it names, and output as JSON or for people. */
export async function contextOf(command: Command): Promise<Context> {
  const options = command.optsWithGlobals<{ api?: string; json?: boolean }>();
  const config = await readConfig();
  const baseUrl = apiUrl(options.api, config);
  const json = !!options.json;
  return {
    config,
    baseUrl,
    json,
    client: createBoothClient({ baseUrl, token: config.token ?? null }),
    print(value, human) {
      console.log(json || !human ? JSON.stringify(value, null, 2) : human());
    },
  };
}

/** Runs a command body; an API error prints the server's message and exits non-zero. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (err) {
      if (err instanceof BoothApiError) console.error(`Error ${err.status}: ${err.message}`);
      else console.error(`Error: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  };
}

/** A fixed-width table for people; --json prints the data instead. */
export function table(rows: Record<string, unknown>[], columns: string[]) {
  if (rows.length === 0) return "(none)";
  const cell = (v: unknown) => (v === null || v === undefined ? "" : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [
    line(columns),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join("\n");
}
