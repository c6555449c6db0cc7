import { type BoothCommand, table } from "../context.ts";

export function voucherCommands(program: BoothCommand) {
  const vouchers = program.command("vouchers").description("Create, list and revoke sign-up vouchers (admins)");
  vouchers
    .command("create")
    .description("Create vouchers")
    .option("-n, --count <n>", "how many", "1")
    .option("--note <note>", "a note kept with them")
    .json()
    .examples("booth vouchers create -n 20 --note 'launch party'")
    .run(async (ctx, options: { count: string; note?: string }) => {
      const { data } = await ctx.client.user.POST("/vouchers", {
        body: { count: Number(options.count), ...(options.note ? { note: options.note } : {}) },
      });
      ctx.print(data, () => (data ?? []).map((v) => v.code).join("\n"));
    });
  vouchers
    .command("list")
    .description("List vouchers, newest first")
    .option("-s, --status <status>", "PENDING, REDEEMED or REVOKED")
    .option("--limit <n>", "how many", "100")
    .json()
    .examples("booth vouchers list --status PENDING")
    .run(async (ctx, options: { status?: "PENDING" | "REDEEMED" | "REVOKED"; limit: string }) => {
      const { data } = await ctx.client.user.GET("/vouchers", {
        params: { query: { limit: Number(options.limit), ...(options.status ? { status: options.status } : {}) } },
      });
      ctx.print(
        data,
        () =>
          `${table((data?.data ?? []) as Record<string, unknown>[], ["id", "code", "status", "note", "createdAt"])}\n${data?.total} in all`,
      );
    });
  vouchers
    .command("revoke <id>")
    .description("Revoke a pending voucher")
    .json()
    .examples("booth vouchers revoke 5f0c...")
    .run(async (ctx, id: string) => {
      const { data } = await ctx.client.user.DELETE("/vouchers/{id}", { params: { path: { id } } });
      ctx.print(data, () => `Revoked ${data?.code}`);
    });
}
