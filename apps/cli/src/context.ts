import { BoothApiError, createBoothClient, LiveRoomError } from "@booth/sdk";
import { Command } from "commander";
import { apiUrl, type CliSettings, type Config, cliSettings, partyUrl, readConfig } from "./config.ts";

export interface Context {
  config: Config;
  /** The settings from the environment (config.ts). */
  settings: CliSettings;
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
  const settings = cliSettings();
  const config = await readConfig();
  const baseUrl = apiUrl(options.api, config);
  const json = !!options.json;
  return {
    config,
    settings,
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

/**
 * The CLI's commands: commander's, with what nearly every command here declares, in its chain: `--json` for one that
 * prints data, the examples of its --help, and its body given the context. Its subcommands are BoothCommands too.
 *
 *   rooms.command("show <room>").description("One room").json().examples("booth rooms show friday-disco")
 *     .run(async (ctx, room: string) => { ... });
 */
export class BoothCommand extends Command {
  override createCommand(name?: string) {
    return new BoothCommand(name);
  }

  /** `--json`: the command prints JSON (`ctx.print`) rather than its lines for people. */
  json(description = "print JSON") {
    return this.option("--json", description);
  }

  /** Examples at the end of the command's --help. */
  examples(...lines: string[]) {
    return examples(this, ...lines);
  }

  /** The command's body, given the context and then commander's arguments and options (`withContext`). */
  run<A extends unknown[]>(body: (ctx: Context, ...args: A) => Promise<void>) {
    return this.action(withContext(body));
  }
}

/**
 * The exit codes scripts can tell apart (the README lists them): a mistake in the command line, a refused or missing
 * sign-in, something that does not exist, a refusal of what was asked, the instance not answering, anything else.
 */
export const EXIT = { failed: 1, usage: 2, auth: 3, notFound: 4, refused: 5, unreachable: 6 } as const;

/** The exit code and the status (when the API answered one) of a failure. */
export function failureOf(err: unknown): { code: number; status: number | null } {
  const status = err instanceof BoothApiError ? err.status : err instanceof LiveRoomError ? err.statusCode : null;
  if (status === 401 || status === 403) return { code: EXIT.auth, status };
  if (status === 404) return { code: EXIT.notFound, status };
  if (status !== null && status >= 400 && status < 500) return { code: EXIT.refused, status };
  // fetch's own failure: nothing answered at that address (refused, reset, no such host).
  if (err instanceof TypeError && /fetch failed/i.test(err.message)) return { code: EXIT.unreachable, status: null };
  return { code: EXIT.failed, status };
}

/** What a failure says: the server's message, or the reason a request never got an answer. */
function messageOf(err: unknown): string {
  if (err instanceof TypeError && /fetch failed/i.test(err.message)) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `the instance did not answer (${cause?.code ?? cause?.message ?? "no connection"})`;
  }
  return (err as Error).message;
}

/**
 * Runs a command body; a failure prints the server's message (as `{"error": {"status", "message"}}` with --json, on
 * stderr either way) and sets the exit code that says what kind of failure it was.
 */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (err) {
      const { code, status } = failureOf(err);
      const message = messageOf(err);
      const command = args.at(-1) as Command | undefined;
      const json =
        typeof command?.optsWithGlobals === "function" && !!command.optsWithGlobals<{ json?: boolean }>().json;
      if (json) console.error(JSON.stringify({ error: { status, message } }));
      else console.error(status === null ? `Error: ${message}` : `Error ${status}: ${message}`);
      process.exitCode = code;
    }
  };
}

/**
 * A command body that needs the context (most do): `withContext(async (ctx, id: string, options: {...}) => ...)`.
 * Commander passes the arguments, then the options, then the command, which gives the context and is not passed on.
 */
export function withContext<A extends unknown[]>(run: (ctx: Context, ...args: A) => Promise<void>) {
  return action(async (...args: unknown[]) => {
    await run(await contextOf(args.at(-1) as Command), ...(args.slice(0, -1) as A));
  });
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
