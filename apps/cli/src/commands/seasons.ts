import { type BoothCommand, table } from "../context.ts";

export function seasonCommands(program: BoothCommand) {
  const seasons = program.command("seasons").description("Ranking seasons: create, run, close and award (admins)");
  seasons
    .command("create <name>")
    .description("Create a season (seasons never overlap)")
    .requiredOption("--start <iso>", "when it starts, e.g. 2026-12-01T00:00:00Z")
    .requiredOption("--end <iso>", "when it ends")
    .json()
    .examples("booth seasons create 'Winter 2026' --start 2026-12-01T00:00:00Z --end 2027-03-01T00:00:00Z")
    .run(async (ctx, name: string, options: { start: string; end: string }) => {
      const { data } = await ctx.client.merch.POST("/points/season", {
        body: { name, start: options.start, end: options.end },
      });
      ctx.print(data, () => `Created season ${data?.name} (${data?.id})`);
    });
  seasons
    .command("list")
    .description("Every season, newest first")
    .json()
    .examples("booth seasons list --json")
    .run(async (ctx) => {
      const { data } = await ctx.client.merch.GET("/admin/seasons");
      ctx.print(data, () =>
        table((data ?? []) as Record<string, unknown>[], ["id", "name", "start", "end", "handledAt"]),
      );
    });
  seasons
    .command("current")
    .description("The season running now")
    .json()
    .examples("booth seasons current")
    .run(async (ctx) => {
      const { data } = await ctx.client.merch.GET("/seasons/current");
      ctx.print(data, () => `${data?.name}: ${data?.start} to ${data?.end} (${data?.id})`);
    });
  seasons
    .command("update <id>")
    .description("Rename a season or move its dates")
    .option("--name <name>")
    .option("--start <iso>")
    .option("--end <iso>")
    .json()
    .examples("booth seasons update 0b5c... --end 2027-03-15T00:00:00Z")
    .run(async (ctx, id: string, options: { name?: string; start?: string; end?: string }) => {
      const body = Object.fromEntries(Object.entries(options).filter(([k, v]) => k !== "json" && v !== undefined));
      if (Object.keys(body).length === 0) throw new Error("give --name, --start or --end");
      const { data } = await ctx.client.merch.PATCH("/points/season/{id}", { params: { path: { id } }, body });
      ctx.print(data, () => `${data?.name}: ${data?.start} to ${data?.end}`);
    });
  seasons
    .command("delete <id>")
    .description("Delete a season and its points")
    .examples("booth seasons delete 0b5c...")
    .run(async (ctx, id: string) => {
      await ctx.client.merch.DELETE("/points/season/{id}", { params: { path: { id } } });
      console.log("Deleted");
    });
  seasons
    .command("ranking [name]")
    .description("A season's ranking (the current one when no name is given)")
    .option("--take <n>", "how many", "50")
    .option("--skip <n>", "from", "0")
    .json()
    .examples("booth seasons ranking", "booth seasons ranking 'Winter 2026' --take 10 --json")
    .run(async (ctx, name: string | undefined, options: { take: string; skip: string }) => {
      const query = { take: Number(options.take), skip: Number(options.skip) };
      const { data } = name
        ? await ctx.client.merch.GET("/points/season-ranking/{seasonName}", {
            params: { path: { seasonName: name }, query },
          })
        : await ctx.client.merch.GET("/points/season-ranking-current", { params: { query } });
      ctx.print(
        data,
        () =>
          `${data?.season?.name}\n${table((data?.data ?? []) as Record<string, unknown>[], ["rank", "nickname", "balance", "userUuid"])}`,
      );
    });
  seasons
    .command("close <id>")
    .description("Close an ended season: hand out its award avatars to everyone who reached their points")
    .json()
    .examples("booth seasons close 0b5c...")
    .run(async (ctx, id: string) => {
      const { data } = await ctx.client.merch.POST("/points/season/admin/handle-points", { body: { seasonId: id } });
      ctx.print(data, () => `Closed; ${data?.awarded} avatars awarded`);
    });

  const points = program.command("points").description("Season points (admins)");
  points
    .command("give <userUuid> <points>")
    .description("Award points in the current season, once per --key")
    .option("-r, --reason <reason>", "why")
    .option("-k, --key <key>", "an award key: the same key never counts twice")
    .json()
    .examples("booth points give 5f0c2a8e-... 25 -r 'best set of the week' -k week-48")
    .run(async (ctx, userUuid: string, amount: string, options: { reason?: string; key?: string }) => {
      const { data } = await ctx.client.merch.POST("/points/service", {
        body: {
          userUuid,
          points: Number(amount),
          ...(options.reason ? { reason: options.reason } : {}),
          ...(options.key ? { awardKey: options.key } : {}),
        },
      });
      ctx.print(data, () => `${data?.awarded ? "Awarded" : "Already awarded"}; balance now ${data?.balance}`);
    });
}
