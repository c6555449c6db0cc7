import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { completionScript, program } from "./main.ts";

const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
const helpOf = (command: Command) => {
  let text = "";
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
};

describe("help and completion", () => {
  it("shows an example in the help of every command", () => {
    const commands = all(program()).slice(1);
    expect(commands.length).toBeGreaterThan(40);
    const without = commands.filter((c) => !/Examples?:\n {2}\$ .*booth/.test(helpOf(c))).map((c) => c.name());
    expect(without).toEqual([]);
  });

  it("offers --json on every listing", () => {
    const listings = all(program()).filter((c) =>
      ["list", "ranking", "plays", "deactivation-requests", "outbox"].includes(c.name()),
    );
    expect(listings.length).toBeGreaterThanOrEqual(6);
    for (const c of listings)
      expect(
        c.options.map((o) => o.long),
        c.name(),
      ).toContain("--json");
  });

  it("completes commands, their subcommands and their options", () => {
    const script = completionScript(program());
    expect(script).toContain("complete -F _booth booth");
    expect(script).toContain('"rooms") words="create list show update promote plays delete reset --help"');
    expect(script).toContain('"bot run") words="--room --crate --token');
  });
});
