import { BoothApiError, createBoothClient, LiveRoomError } from "@booth/sdk";
import type { Command } from "commander";
import { apiUrl, type Config, partyUrl, readConfig } from "./config.ts";

export interface Context {
  config: Config;
  baseUrl: string;
  /** The live rooms' base URL (--party, BOOTH_PARTY_URL, the config, or the local default). */
  partyUrl: string;
  client: ReturnType<typeof createBoothClient>;
  json: boolean;
  print(value: unknown, human?: () => string): void;
}

/** What every command needs: the config, a client for the API it names, and output as JSON or for people. */
export async function contextOf(command: Command): Promise<Context> {
  const options = command.optsWithGlobals<{ api?: string; party?: string; json?: boolean }>();
  const config = await readConfig();
  const baseUrl = apiUrl(options.api, config);
  const json = !!options.json;
  return {
    config,
    baseUrl,
    partyUrl: partyUrl(options.party, config),
    json,
    client: createBoothClient({ baseUrl, token: config.token ?? null }),
    print(value, human) {
      console.log(json || !human ? JSON.stringify(value, null, 2) : human());
    },
  };
}

/** Adds examples to a command's --help. */
export function examples<C extends Command>(command: C, ...lines: string[]): C {
  return command.addHelpText(
    "after",
    `\n${lines.length > 1 ? "Examples" : "Example"}:\n${lines.map((l) => `  $ ${l}`).join("\n")}`,
  );
}

/** Runs a command body; an API error prints the server's message and exits non-zero. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (err) {
      if (err instanceof BoothApiError) console.error(`Error ${err.status}: ${err.message}`);
      else if (err instanceof LiveRoomError) console.error(`Error ${err.statusCode}: ${err.message}`);
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
