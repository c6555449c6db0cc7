import { Command } from "commander";
import { seasonCommands } from "./commands/seasons.ts";
import { sessionCommands } from "./commands/session.ts";
import { tokenCommands, userCommands } from "./commands/users.ts";
import { voucherCommands } from "./commands/vouchers.ts";

export function program() {
  const booth = new Command("booth")
    .description("Run a Booth instance from the command line: sessions, users, vouchers, seasons, tokens")
    .option("--api <url>", "the API base URL (else BOOTH_API_URL, the stored one, or http://127.0.0.1:8787)")
    .showHelpAfterError();
  sessionCommands(booth);
  voucherCommands(booth);
  seasonCommands(booth);
  userCommands(booth);
  tokenCommands(booth);
  booth
    .command("completion")
    .description('Print a bash completion script: eval "$(booth completion)"')
    .action(() => {
      const words = booth.commands.map((c) => c.name()).join(" ");
      console.log(`complete -W "${words}" booth`);
    });
  return booth;
}

/** Runs the CLI on argv; answers the exit code. */
export async function main(argv: string[]) {
  process.exitCode = 0;
  await program().parseAsync(argv);
  return Number(process.exitCode ?? 0);
}
