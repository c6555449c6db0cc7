import { BOOTH_VERSION } from "@booth/sdk/version";
import { type Command, CommanderError } from "commander";
import { avatarCommands } from "./commands/avatars.ts";
import { botCommands } from "./commands/bot.ts";
import { brandCommand } from "./commands/brand.ts";
import { crateCommands } from "./commands/crates.ts";
import { discordCommands } from "./commands/discord.ts";
import { jobsCommand } from "./commands/jobs.ts";
import { outboxCommand } from "./commands/outbox.ts";
import { roomCommands } from "./commands/rooms.ts";
import { seasonCommands } from "./commands/seasons.ts";
import { seedCommand } from "./commands/seed.ts";
import { sessionCommands } from "./commands/session.ts";
import { shopCommands } from "./commands/shop.ts";
import { tokenCommands, userCommands } from "./commands/users.ts";
import { voucherCommands } from "./commands/vouchers.ts";
import { BoothCommand, EXIT, examples } from "./context.ts";

export function program() {
  const booth = new BoothCommand("booth")
    .version(BOOTH_VERSION, "-V, --version", "print Booth's version")
    .description(
      "Run a Booth instance from the command line: seed it, script users, vouchers, seasons, avatars, rooms and tokens, run bots, read its outbox",
    )
    .option("--api <url>", "the API base URL (else BOOTH_EDGE_URL, the stored one, or http://127.0.0.1:8787)")
    .showHelpAfterError()
    // Commander's errors (unknown command or option, missing argument) come back to main, which exits 2.
    .exitOverride();
  sessionCommands(booth);
  voucherCommands(booth);
  seasonCommands(booth);
  userCommands(booth);
  tokenCommands(booth);
  avatarCommands(booth);
  shopCommands(booth);
  roomCommands(booth);
  crateCommands(booth);
  botCommands(booth);
  discordCommands(booth);
  seedCommand(booth);
  outboxCommand(booth);
  jobsCommand(booth);
  brandCommand(booth);
  examples(
    booth
      .command("completion")
      .argument("[shell]", "bash, zsh or fish", "bash")
      .description('Print a completion script for bash, zsh or fish: eval "$(booth completion)"'),
    'eval "$(booth completion)"',
    "booth completion > /etc/bash_completion.d/booth",
    'eval "$(booth completion zsh)"     # in ~/.zshrc',
    "booth completion fish > ~/.config/fish/completions/booth.fish",
  ).action((shell: string) => {
    if (shell === "fish") console.log(fishCompletion(booth));
    else if (shell === "zsh") console.log(zshCompletion(booth));
    else if (shell === "bash") console.log(completionScript(booth));
    else throw new CommanderError(2, "booth.shell", `booth completion: no completion for ${shell} (bash, zsh or fish)`);
  });
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

/** zsh reads the bash script through its bash completion layer (bashcompinit), which ships with zsh. */
export function zshCompletion(booth: Command) {
  return `# booth zsh completion: eval "$(booth completion zsh)"
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${completionScript(booth)}`;
}

/** fish: the commands first, then each command's subcommands and options once it is typed. */
export function fishCompletion(booth: Command) {
  const lines = [
    "# booth fish completion: booth completion fish > ~/.config/fish/completions/booth.fish",
    "complete -c booth -f",
  ];
  const quote = (s: string) => `'${s.replaceAll("'", "\\'")}'`;
  for (const command of booth.commands)
    lines.push(`complete -c booth -n __fish_use_subcommand -a ${command.name()} -d ${quote(command.description())}`);
  for (const command of booth.commands) {
    const seen = `-n '__fish_seen_subcommand_from ${command.name()}'`;
    for (const sub of command.commands)
      lines.push(`complete -c booth ${seen} -a ${sub.name()} -d ${quote(sub.description())}`);
    for (const option of [command, ...command.commands].flatMap((c) => c.options))
      if (option.long) lines.push(`complete -c booth ${seen} -l ${option.long.slice(2)}`);
  }
  return [...new Set(lines)].join("\n");
}

/** Runs the CLI on argv; answers the exit code (2 for a command line it cannot take). */
export async function main(argv: string[]) {
  process.exitCode = 0;
  try {
    await program().parseAsync(argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // --help and --version end here too, successfully; commander has printed what there was to print.
    return err.exitCode === 0 ? 0 : EXIT.usage;
  }
  return Number(process.exitCode ?? 0);
}
