import { runBot } from "../bot/run.ts";
import type { BoothCommand } from "../context.ts";

export function botCommands(program: BoothCommand) {
  const bot = program.command("bot").description("Bots: create one, and run it in a room");
  bot
    .command("create <name>")
    .description("Create a bot you own (at most 10) and print its token")
    .json()
    .examples(
      "booth bot create 'Groove Bot'",
      "export BOOTH_BOT_TOKEN=$(booth bot create 'Groove Bot' --json | jq -r .accessToken)",
    )
    .run(async (ctx, name: string) => {
      const { data } = await ctx.client.user.POST("/users/sign-up-bot", { body: { nickname: name } });
      ctx.print(
        {
          uuid: data?.user.uuid,
          nickname: data?.user.profile?.nickname,
          accessToken: data?.accessToken,
          expiresAt: data?.expiresAt,
        },
        () => `Created bot ${data?.user.profile?.nickname} (${data?.user.uuid}); its token:\n${data?.accessToken}`,
      );
    });
  bot
    .command("token <botUuid>")
    .description("A new token for one of your bots; its older tokens stop working")
    .json()
    .examples("booth bot token 5f0c2a8e-...")
    .run(async (ctx, botUuid: string) => {
      const { data } = await ctx.client.user.GET("/users/bot-token", { params: { query: { botUuid } } });
      ctx.print(data, () => `${data?.accessToken}`);
    });
  bot
    .command("run")
    .description(
      "Join a room as a bot: take a DJ seat, play from the queue crate, like others' songs, answer !help, !song, !skip; Ctrl-C leaves",
    )
    .requiredOption("-r, --room <room>", "the room's slug or uuid")
    .option("-c, --crate <crateUuid>", "put this crate's songs in the bot's queue first")
    .option("-t, --token <token>", "the bot's token (else BOOTH_BOT_TOKEN, else the stored session)")
    .option("--password <password>", "the room's password")
    .option("--no-dj", "only listen, like and answer; do not DJ")
    .option("--no-like", "do not like others' songs")
    .option("--party <url>", "the live rooms' URL (else BOOTH_PARTY_URL, the stored one, or http://127.0.0.1:1999)")
    .examples(
      "booth bot run --room friday-disco",
      "BOOTH_BOT_TOKEN=eyJ... booth bot run --room friday-disco --crate 0b5c...",
    )
    .run(
      async (
        ctx,
        o: { room: string; crate?: string; token?: string; password?: string; dj: boolean; like: boolean },
      ) => {
        const token = o.token ?? ctx.settings.BOOTH_BOT_TOKEN ?? ctx.config.token;
        if (!token) throw new Error("give --token (or BOOTH_BOT_TOKEN), or sign in with booth login --token");
        const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
        const running = await runBot({
          apiUrl: ctx.baseUrl,
          partyUrl: ctx.partyUrl,
          token,
          room: o.room,
          ...(o.crate ? { crate: o.crate } : {}),
          ...(o.password ? { password: o.password } : {}),
          log,
          behaviour: { dj: o.dj, likeOthers: o.like },
        });
        // Runs until Ctrl-C (or a TERM): the seat is given back and the socket closed before exiting.
        await new Promise<void>((resolve) => {
          let stopping = false;
          const stop = (signal: string) => {
            if (stopping) return;
            stopping = true;
            log(`${signal}: leaving`);
            void running.stop().finally(resolve);
          };
          process.once("SIGINT", () => stop("SIGINT"));
          process.once("SIGTERM", () => stop("SIGTERM"));
          running.client.on("kicked", () => stop("kicked"));
        });
        log("bye");
        process.exit(process.exitCode ?? 0);
      },
    );
}
