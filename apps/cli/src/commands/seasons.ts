import type { Command } from "commander";
import { action, contextOf, table } from "../context.ts";

export function seasonCommands(program: Command) {
  const seasons = program.command("seasons").description("Ranking seasons (admins)");
  seasons
    .command("create <name>")
    .description("Create a season")
    .requiredOption("--start <iso>", "when it starts, e.g. 2026-12-01T00:00:00Z")
    .requiredOption("--end <iso>", "when it ends")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nExample:\n  $ booth seasons create 'Winter 2026' --start 2026-12-01T00:00:00Z --end 2027-03-01T00:00:00Z",
    )
    .action(
      action(async (name: string, options: { start: string; end: string }, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.merch.POST("/points/season", {
          body: { name, start: options.start, end: options.end },
        });
        ctx.print(data, () => `Created season ${data?.name} (${data?.id})`);
      }),
    );
  seasons
    .command("list")
    .description("Every season, newest first")
    .option("--json", "print JSON")
    .action(
      action(async (_options: unknown, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.merch.GET("/admin/seasons");
        ctx.print(data, () =>
          table((data ?? []) as Record<string, unknown>[], ["id", "name", "start", "end", "handledAt"]),
        );
      }),
    );
  seasons
    .command("current")
    .description("The season running now")
    .option("--json", "print JSON")
    .action(
      action(async (_options: unknown, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.merch.GET("/seasons/current");
        ctx.print(data, () => `${data?.name}: ${data?.start} to ${data?.end}`);
      }),
    );
  seasons
    .command("close <id>")
    .description("Close an ended season: hand out its award avatars")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ booth seasons close 0b5c...")
    .action(
      action(async (id: string, _options: unknown, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.merch.POST("/points/season/admin/handle-points", { body: { seasonId: id } });
        ctx.print(data, () => `Closed; ${data?.awarded} avatars awarded`);
      }),
    );
}
