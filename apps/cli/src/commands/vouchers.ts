import type { Command } from "commander";
import { table, withContext } from "../context.ts";

export function voucherCommands(program: Command) {
  const vouchers = program.command("vouchers").description("Create, list and revoke sign-up vouchers (admins)");
  vouchers
    .command("create")
    .description("Create vouchers")
    .option("-n, --count <n>", "how many", "1")
    .option("--note <note>", "a note kept with them")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ booth vouchers create -n 20 --note 'launch party'")
    .action(
      withContext(async (ctx, options: { count: string; note?: string }) => {
        const { data } = await ctx.client.user.POST("/vouchers", {
          body: { count: Number(options.count), ...(options.note ? { note: options.note } : {}) },
        });
        ctx.print(data, () => (data ?? []).map((v) => v.code).join("\n"));
      }),
    );
  vouchers
    .command("list")
    .description("List vouchers, newest first")
    .option("-s, --status <status>", "PENDING, REDEEMED or REVOKED")
    .option("--limit <n>", "how many", "100")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ booth vouchers list --status PENDING")
    .action(
      withContext(async (ctx, options: { status?: "PENDING" | "REDEEMED" | "REVOKED"; limit: string }) => {
        const { data } = await ctx.client.user.GET("/vouchers", {
          params: { query: { limit: Number(options.limit), ...(options.status ? { status: options.status } : {}) } },
        });
        ctx.print(
          data,
          () =>
            `${table((data?.data ?? []) as Record<string, unknown>[], ["id", "code", "status", "note", "createdAt"])}\n${data?.total} in all`,
        );
      }),
    );
  vouchers
    .command("revoke <id>")
    .description("Revoke a pending voucher")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ booth vouchers revoke 5f0c...")
    .action(
      withContext(async (ctx, id: string) => {
        const { data } = await ctx.client.user.DELETE("/vouchers/{id}", { params: { path: { id } } });
        ctx.print(data, () => `Revoked ${data?.code}`);
      }),
    );
}
