import { DISCORD_COMMANDS } from "@booth/sdk/discord";
import type { BoothCommand } from "../context.ts";

/** What Discord says of a refusal: `{ message, code }`, else its status alone. */
async function refusalOf(res: Response) {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof body.message === "string") return `${body.message}${body.code ? ` (code ${body.code})` : ""}`;
  } catch {}
  return text.slice(0, 200) || res.statusText;
}

export function discordCommands(program: BoothCommand) {
  const discord = program.command("discord").description("Booth's Discord bot (docs/discord.md)");
  discord
    .command("register-commands")
    .description(
      "Register the bot's /booth commands with Discord (DISCORD_BOT_TOKEN, DISCORD_APPLICATION_ID): everywhere, or in one guild at once with --guild",
    )
    .option("--guild <id>", "register in this guild only (its commands show at once: for trying them)")
    .json()
    .examples("booth discord register-commands", "booth discord register-commands --guild 123456789012345678")
    .run(async (ctx, options: { guild?: string }) => {
      const { DISCORD_BOT_TOKEN: token, DISCORD_APPLICATION_ID: application, DISCORD_API_URL: api } = ctx.settings;
      const missing = [...(token ? [] : ["DISCORD_BOT_TOKEN"]), ...(application ? [] : ["DISCORD_APPLICATION_ID"])];
      if (missing.length)
        throw new Error(
          `booth discord register-commands needs ${missing.join(" and ")} (the Developer Portal shows them)`,
        );
      if (!/^\d{5,25}$/.test(application as string))
        throw new Error(`DISCORD_APPLICATION_ID is not a Discord id: "${application}"`);
      if (options.guild !== undefined && !/^\d{5,25}$/.test(options.guild))
        throw new Error(`--guild is not a Discord guild id: "${options.guild}"`);
      const where = options.guild ? `/guilds/${options.guild}` : "";
      const res = await fetch(`${api}/applications/${application}${where}/commands`, {
        method: "PUT",
        headers: { authorization: `Bot ${token}`, "content-type": "application/json" },
        body: JSON.stringify(DISCORD_COMMANDS),
      });
      if (!res.ok) throw new Error(`Discord refused the commands (${res.status}): ${await refusalOf(res)}`);
      const registered = (await res.json()) as { id: string; name: string }[];
      ctx.print(registered, () =>
        options.guild
          ? `Registered /${registered.map((c) => c.name).join(", /")} in guild ${options.guild}: its members see them now.`
          : `Registered /${registered.map((c) => c.name).join(", /")} for every guild that added the bot.`,
      );
    });
}
