import type { Schema } from "@booth/sdk";
import type { BoothCommand } from "../context.ts";
import { progress } from "../progress.ts";

type PlaylistImport = Schema<"playlist", "PlaylistImport">;

/** What a finished import says on stdout: the crate first (a script reads its id), then how it went. */
const finished = (job: PlaylistImport) =>
  [
    `crate ${job.crateUuid}`,
    `"${job.playlistName}": ${job.imported} imported, ${job.skipped} skipped of ${job.done}`,
    ...(job.message ? [job.message] : []),
  ].join("\n");

export function crateCommands(program: BoothCommand) {
  const crates = program.command("crates").description("Your crates (playlists)");
  crates
    .command("import")
    .argument("<link>", "a Spotify, YouTube or SoundCloud playlist link")
    .description(
      "Import a Spotify, YouTube or SoundCloud playlist into a new crate named after it (its first 500 tracks), showing the progress until it is done; prints the crate's id",
    )
    .option("--interval <seconds>", "how often to ask how far it is", "1")
    .option("--json", "print the finished import as JSON")
    .examples(
      "booth crates import https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M",
      "booth crates import 'https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf' --json",
    )
    .run(async (ctx, link: string, options: { interval: string }) => {
      const interval = Number(options.interval);
      if (!Number.isFinite(interval) || interval <= 0 || interval > 60)
        throw new Error("--interval: a number of seconds, at most 60");
      const { data: started } = await ctx.client.playlist.POST("/api/v1/playlist-imports", { body: { link } });
      if (!started) throw new Error("the import did not start");
      const bar = progress({ title: `import "${started.playlistName}"`, total: started.total });
      let job = started;
      let shown = 0;
      for (;;) {
        if (job.done > shown) {
          bar.tick(`${job.imported} imported, ${job.skipped} skipped`, job.done - shown);
          shown = job.done;
        }
        if (job.state === "complete" || job.state === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, interval * 1000));
        const { data } = await ctx.client.playlist.GET("/api/v1/playlist-imports/{importId}", {
          params: { path: { importId: started.importId } },
        });
        if (!data) throw new Error("the import's progress could not be read");
        job = data;
      }
      bar.done();
      if (job.state === "failed")
        throw new Error(
          `the import stopped after ${job.done} of ${job.total} tracks: ${job.message ?? "no reason given"} (what was imported is in crate ${job.crateUuid})`,
        );
      ctx.print(job, () => finished(job));
    });
}
