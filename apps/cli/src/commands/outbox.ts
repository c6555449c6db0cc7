import type { Schema } from "@booth/sdk";
import type { BoothCommand } from "../context.ts";

type OutboxMessage = Schema<"user", "OutboxMessage">;

const CHANNELS = { email: "Email", sms: "SMS", whatsapp: "WhatsApp" } as const;

/** One message as a block, oldest first on screen so the newest ends next to the prompt. */
const block = (m: OutboxMessage) =>
  [
    `${m.createdAt}  ${CHANNELS[m.channel]} to ${m.to}`,
    ...(m.subject ? [`  Subject: ${m.subject}`] : []),
    ...m.body.split("\n").map((line) => `  ${line}`),
  ].join("\n");

export function outboxCommand(program: BoothCommand) {
  program
    .command("outbox")
    .description("List the latest emails and SMS kept in the outbox, where they go without a provider (admins)")
    .option("--limit <n>", "how many (at most 100)", "10")
    .option("--to <address>", "only those to this email address or phone number")
    .json()
    .examples("booth outbox --to newcomer@example.com --limit 1", "booth outbox --json")
    .run(async (ctx, options: { limit: string; to?: string }) => {
      const { data } = await ctx.client.user.GET("/outbox", {
        params: { query: { limit: Number(options.limit), ...(options.to ? { to: options.to } : {}) } },
      });
      const messages = data?.data ?? [];
      ctx.print(data, () =>
        messages.length === 0
          ? "(none)"
          : `${[...messages].reverse().map(block).join("\n\n")}\n\n${messages.length} of ${data?.total} in all`,
      );
    });
}
