import type { BoothCommand } from "../context.ts";

/** `booth brand`: which brand the instance runs (BOOTH_BRAND, decision 0027), its name and the sources it offers. */
export function brandCommand(program: BoothCommand) {
  program
    .command("brand")
    .description("Which brand the instance runs (streaming or catalogue), its name, and the sources it offers")
    .json()
    .examples("booth brand", "booth brand --json")
    .run(async (ctx) => {
      const { data } = await ctx.client.playlist.GET("/song-data/brand");
      ctx.print(data, () => `${data?.brand} (${data?.name}): ${data?.sources.join(", ")}`);
    });
}
