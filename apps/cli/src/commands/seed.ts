import type { BoothCommand } from "../context.ts";
import { progress } from "../progress.ts";
import { DEMO_TRACKS } from "../seed/demo-data.ts";
import { SEED_STEPS, seed } from "../seed/seed.ts";

const ADMIN_ROLES = ["admin", "superUser"];

export function seedCommand(program: BoothCommand) {
  program
    .command("seed")
    .description(
      "Load demo data into a running instance (admins): waits for the demo catalogue, then demo users with profiles, rooms, crates, a current season and avatars. Running it again creates nothing new.",
    )
    .option("--password <password>", "the demo users' password (else BOOTH_DEMO_PASSWORD, else booth-demo-password)")
    .option("--demo-tracks <n>", "how many demo catalogue tracks to wait for", String(DEMO_TRACKS))
    .option("--wait <seconds>", "how long to wait for the demo catalogue", "600")
    .json("print the result as JSON")
    .examples(
      "booth seed",
      "booth seed --json > seeded.json",
      "BOOTH_DEMO_PASSWORD='another password' booth seed --wait 60",
    )
    .run(async (ctx, o: { password?: string; demoTracks: string; wait: string }) => {
      const { data: session } = await ctx.client.user.GET("/auth/session");
      if (!session?.user.roles.some((r) => ADMIN_ROLES.includes(r)))
        throw new Error("booth seed needs an admin session: booth login -e <admin email>");
      const demoTracks = Number(o.demoTracks);
      const waitSeconds = Number(o.wait);
      if (!Number.isInteger(demoTracks) || demoTracks < 0) throw new Error("--demo-tracks: a whole number");
      if (!Number.isFinite(waitSeconds) || waitSeconds < 0) throw new Error("--wait: a number of seconds");
      const password = o.password ?? ctx.settings.BOOTH_DEMO_PASSWORD;
      if (password.length < 8) throw new Error("--password: at least 8 characters");
      const bar = progress({ title: "seed", total: demoTracks + SEED_STEPS });
      const result = await seed({
        baseUrl: ctx.baseUrl,
        admin: ctx.client,
        password,
        demoTracks,
        waitMs: waitSeconds * 1000,
        progress: bar,
      });
      bar.done();
      const line = (name: string, t: { created: number; existing: number }) =>
        `${name.padEnd(9)} ${t.created} created, ${t.existing} already there`;
      ctx.print(result, () =>
        [
          `catalogue ${result.catalogue.tracks} demo tracks`,
          line("users", result.users),
          line("rooms", result.rooms),
          line("crates", result.crates),
          line("avatars", result.avatars),
          `${line("season", result.season)} (${result.season.name})`,
          `The demo users (aurora, basil, cosmo, delphine, ezra, fern @demo.booth.local) sign in with "${password}".`,
        ].join("\n"),
      );
    });
}
