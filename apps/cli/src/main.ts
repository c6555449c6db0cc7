import { Command } from "commander";
import { avatarCommands } from "./commands/avatars.ts";
import { botCommands } from "./commands/bot.ts";
import { outboxCommand } from "./commands/outbox.ts";
import { roomCommands } from "./commands/rooms.ts";
import { seasonCommands } from "./commands/seasons.ts";
import { seedCommand } from "./commands/seed.ts";
import { sessionCommands } from "./commands/session.ts";
import { shopCommands } from "./commands/shop.ts";
import { tokenCommands, userCommands } from "./commands/users.ts";
import { voucherCommands } from "./commands/vouchers.ts";
import { examples } from "./context.ts";

export function program() {
  const booth = new Command("booth")
    .description(
      "Run a Booth instance from the command line: seed it, script users, vouchers, seasons, avatars, rooms and tokens, run bots, read its outbox",
    )
    .option("--api <url>", "the API base URL (else BOOTH_API_URL, the stored one, or http://127.0.0.1:8787)")
    .showHelpAfterError();
  sessionCommands(booth);
  voucherCommands(booth);
  seasonCommands(booth);
  userCommands(booth);
  tokenCommands(booth);
  avatarCommands(booth);
  shopCommands(booth);
  roomCommands(booth);
  botCommands(booth);
  seedCommand(booth);
  outboxCommand(booth);
  examples(
    booth.command("completion").description('Print a bash completion script: eval "$(booth completion)"'),
    'eval "$(booth completion)"',
    "booth completion > /etc/bash_completion.d/booth",
  ).action(() => console.log(completionScript(booth)));
  // A group's help points at its commands' own help, where the examples are.
  for (const group of booth.commands)
    if (group.commands.length)
      examples(group, ...group.commands.slice(0, 2).map((c) => `booth ${group.name()} ${c.name()} --help`));
  return booth;
}

/**
 * A bash completion script: the commands, then each command's subcommands and options, then the options of the
 * subcommand typed.
 */
export function completionScript(booth: Command) {
  const options = (c: Command) => [...c.options.map((o) => o.long ?? o.short ?? ""), "--help"].filter(Boolean);
  const commandCases: string[] = [];
  const subCases: string[] = [];
  for (const command of booth.commands) {
    const words = [...command.commands.map((c) => c.name()), ...options(command)];
    commandCases.push(`      "${command.name()}") words="${words.join(" ")}" ;;`);
    for (const sub of command.commands)
      subCases.push(`      "${command.name()} ${sub.name()}") words="${options(sub).join(" ")}" ;;`);
  }
  const top = [...booth.commands.map((c) => c.name()), ...options(booth)].join(" ");
  return `# booth bash completion: eval "$(booth completion)"
_booth() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" sub="\${COMP_WORDS[2]}" words=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    words="${top}"
  elif [ "$COMP_CWORD" -eq 2 ]; then
    case "$cmd" in
${commandCases.join("\n")}
    esac
  else
    case "$cmd $sub" in
${subCases.join("\n")}
      *) case "$cmd" in
${commandCases.map((c) => `  ${c}`).join("\n")}
         esac ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _booth booth`;
}

/** Runs the CLI on argv; answers the exit code. */
export async function main(argv: string[]) {
  process.exitCode = 0;
  await program().parseAsync(argv);
  return Number(process.exitCode ?? 0);
}
