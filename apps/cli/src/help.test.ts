import { BOOTH_VERSION } from "@booth/sdk/version";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { completionScript, fishCompletion, program, zshCompletion } from "./main.ts";

const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
const helpOf = (command: Command) => {
  let text = "";
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
};

describe("help and completion", () => {
  it("prints Booth's version with --version and -V", async () => {
    let out = "";
    const booth = program()
      .exitOverride()
      .configureOutput({ writeOut: (s) => (out += s) });
    await expect(booth.parseAsync(["node", "booth", "--version"])).rejects.toMatchObject({ code: "commander.version" });
    expect(out).toBe(`${BOOTH_VERSION}\n`);
    await expect(booth.parseAsync(["node", "booth", "-V"])).rejects.toMatchObject({ code: "commander.version" });
    expect(out).toBe(`${BOOTH_VERSION}\n${BOOTH_VERSION}\n`);
    expect(BOOTH_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

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

  it("completes in zsh (through bashcompinit) and in fish", () => {
    const zsh = zshCompletion(program());
    expect(zsh).toContain("bashcompinit");
    expect(zsh).toContain("complete -F _booth booth");
    const fish = fishCompletion(program()).split("\n");
    expect(fish).toContain("complete -c booth -f");
    expect(fish.some((l) => l.startsWith("complete -c booth -n __fish_use_subcommand -a rooms "))).toBe(true);
    expect(fish.some((l) => l.startsWith("complete -c booth -n '__fish_seen_subcommand_from rooms' -a create "))).toBe(
      true,
    );
    expect(fish).toContain("complete -c booth -n '__fish_seen_subcommand_from bot' -l room");
  });
});
