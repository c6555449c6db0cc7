import { createBoothClient } from "@booth/sdk";
import { forgetConfig, writeConfig } from "../config.ts";
import { action, type BoothCommand } from "../context.ts";

export function sessionCommands(program: BoothCommand) {
  program
    .command("login")
    .description("Sign in with an email and password, or keep a bot token")
    .option("-e, --email <email>", "account email")
    .option("-p, --password <password>", "account password (prefer BOOTH_PASSWORD)")
    .option("-t, --token <token>", "a bot token (from `booth bot create`)")
    .option("--party <url>", "also keep the live rooms' URL (for bots and `rooms reset`)")
    .examples(
      "booth login -e admin@booth.local -p secret",
      "BOOTH_PASSWORD=secret booth login -e me@example.com",
      "booth login --token eyJhbGciOi...",
    )
    .run(async (ctx, options: { email?: string; password?: string; token?: string; party?: string }) => {
      let token = options.token;
      if (!token) {
        let password = options.password ?? ctx.settings.BOOTH_PASSWORD;
        // At a terminal, ask for it rather than have it typed into the shell's history.
        if (options.email && !password && process.stdin.isTTY) password = await askHidden("Password: ");
        if (!options.email || !password) throw new Error("give --email and --password (or BOOTH_PASSWORD), or --token");
        const { data } = await ctx.client.user.POST("/auth/login", { body: { email: options.email, password } });
        token = data?.accessToken;
      }
      const session = await createBoothClient({ baseUrl: ctx.baseUrl, token }).user.GET("/auth/session");
      await writeConfig({
        apiUrl: ctx.baseUrl,
        ...(options.party ? { partyUrl: options.party } : ctx.config.partyUrl ? { partyUrl: ctx.config.partyUrl } : {}),
        token: session.data?.accessToken ?? token,
        email: session.data?.user.email ?? undefined,
      });
      ctx.print(
        { uuid: session.data?.user.uuid, email: session.data?.user.email, roles: session.data?.user.roles },
        () =>
          `Signed in as ${session.data?.user.email ?? session.data?.user.profile?.nickname} (${session.data?.user.roles.join(", ")})`,
      );
    });

  program
    .command("logout")
    .description("Forget the stored session")
    .examples("booth logout")
    .action(
      action(async () => {
        await forgetConfig();
        console.log("Signed out.");
      }),
    );

  program
    .command("whoami")
    .description("Who the stored session is")
    .json()
    .examples("booth whoami", "booth whoami --json | jq -r .uuid")
    .run(async (ctx) => {
      const { data } = await ctx.client.user.GET("/auth/session");
      const user = data?.user;
      ctx.print(
        { uuid: user?.uuid, email: user?.email, nickname: user?.profile?.nickname, roles: user?.roles },
        () =>
          `${user?.profile?.nickname} <${user?.email ?? "no email"}> ${user?.uuid}\nroles: ${user?.roles.join(", ")}`,
      );
    });
}

/** Asks at the terminal, echoing nothing of the answer. */
export function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    // Raw (no echo) before the question shows: what is typed the moment it appears is not echoed either.
    input.setRawMode(true);
    process.stderr.write(question);
    let answer = "";
    input.resume();
    input.setEncoding("utf8");
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(answer);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return done();
        if (ch === "\u0003") return done(new Error("cancelled"));
        if (ch === "\u007f" || ch === "\b") answer = answer.slice(0, -1);
        else answer += ch;
      }
    };
    input.on("data", onData);
  });
}
