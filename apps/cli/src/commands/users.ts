import type { Command } from "commander";
import { action, contextOf, table } from "../context.ts";

const many = (value: string, previous: string[] = []) => [...previous, value];

export function userCommands(program: Command) {
  const users = program.command("users").description("Find and moderate accounts (staff, moderators, admins)");
  users
    .command("list")
    .description("List accounts, with the admin list's filter and sort syntax")
    .option("-f, --filter <field||$op||value>", "a filter, repeatable (e.g. email||$cont||@example.com)", many)
    .option("-s, --sort <field,ASC|DESC>", "a sort, repeatable", many)
    .option("--limit <n>", "page size", "25")
    .option("--page <n>", "page", "1")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  $ booth users list -f 'roles||$cont||moderator'\n  $ booth users list -f 'email||$contL||gmail' -s createdAt,DESC --json",
    )
    .action(
      action(async (options: { filter?: string[]; sort?: string[]; limit: string; page: string }, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.user.GET("/admin/users", {
          params: {
            query: {
              filter: options.filter,
              sort: options.sort,
              limit: Number(options.limit),
              page: Number(options.page),
            },
          },
        });
        ctx.print(
          data,
          () =>
            `${table((data?.data ?? []) as Record<string, unknown>[], ["uuid", "email", "nickname", "roles", "createdAt"])}\npage ${data?.page} of ${data?.pageCount}, ${data?.total} in all`,
        );
      }),
    );
  users
    .command("show <uuid>")
    .description("One account, with its profile")
    .option("--json", "print JSON")
    .action(
      action(async (uuid: string, _o: unknown, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.user.GET("/admin/users/{id}", {
          params: { path: { id: uuid }, query: { join: "profile" } },
        });
        ctx.print(data);
      }),
    );
  const sanction = (
    name: "kick" | "ban" | "unban",
    path: "/users/kick" | "/users/ban" | "/users/unban",
    description: string,
  ) =>
    users
      .command(`${name} <uuid>`)
      .description(description)
      .option("-r, --reason <reason>", "why (kept in the moderation log)")
      .action(
        action(async (uuid: string, options: { reason?: string }, command: Command) => {
          const ctx = await contextOf(command);
          await ctx.client.user.POST(path, {
            body: {
              userUuid: uuid,
              ...(options.reason && name !== "unban" ? { reason: options.reason } : {}),
            } as never,
          });
          console.log(`${name}: done`);
        }),
      );
  sanction("kick", "/users/kick", "End every session of an account (they may sign in again)");
  sanction("ban", "/users/ban", "Ban an account until unbanned");
  sanction("unban", "/users/unban", "Lift the bans of an account");
  users
    .command("temp-ban <uuid>")
    .description("Ban an account for a while")
    .requiredOption("-m, --minutes <n>", "how long")
    .option("-r, --reason <reason>", "why")
    .addHelpText("after", "\nExample:\n  $ booth users temp-ban 5f0c... -m 1440 -r spam")
    .action(
      action(async (uuid: string, options: { minutes: string; reason?: string }, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.user.POST("/users/temporary-ban", {
          body: {
            userUuid: uuid,
            durationMinutes: Number(options.minutes),
            ...(options.reason ? { reason: options.reason } : {}),
          },
        });
        console.log(`banned until ${data?.expiresAt}`);
      }),
    );
  users
    .command("add-role <uuid> <role>")
    .description("Grant a global role")
    .action(
      action(async (uuid: string, role: string, _o: unknown, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.user.POST("/users/add-role", {
          body: { userUuid: uuid, role: role as never },
        });
        console.log(`roles: ${data?.roles.join(", ")}`);
      }),
    );
  users
    .command("capability <uuid> <capability>")
    .description("Give (or with --remove take) uploadMusic or promoteRoom")
    .option("--remove", "take it away")
    .action(
      action(async (uuid: string, capability: string, options: { remove?: boolean }, command: Command) => {
        const ctx = await contextOf(command);
        const params = { params: { path: { id: uuid, capability: capability as never } } };
        const { data } = options.remove
          ? await ctx.client.user.DELETE("/users/{id}/capabilities/{capability}", params)
          : await ctx.client.user.PUT("/users/{id}/capabilities/{capability}", params);
        console.log(`capabilities: ${data?.capabilities.join(", ") || "(none)"}`);
      }),
    );
  for (const [name, method, path] of [
    ["deactivate", "DELETE", "/users/deactivate/{id}"],
    ["reactivate", "POST", "/users/reactivate/{id}"],
  ] as const)
    users
      .command(`${name} <uuid>`)
      .description(`${name[0]?.toUpperCase()}${name.slice(1)} an account (admins)`)
      .action(
        action(async (uuid: string, _o: unknown, command: Command) => {
          const ctx = await contextOf(command);
          if (method === "DELETE")
            await ctx.client.user.DELETE(path as "/users/deactivate/{id}", { params: { path: { id: uuid } } });
          else await ctx.client.user.POST(path as "/users/reactivate/{id}", { params: { path: { id: uuid } } });
          console.log(`${name}d`);
        }),
      );
}

export function tokenCommands(program: Command) {
  const tokens = program.command("tokens").description("Token accounts (admins)");
  tokens
    .command("credit <accountId> <amount>")
    .description("Credit tokens to an account, once per --key")
    .requiredOption("-r, --reason <reason>", "why (kept in the ledger)")
    .option("-k, --key <key>", "an idempotency key: the same key never credits twice")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ booth tokens credit 8e1a... 500 -r 'contest prize' -k contest-2026-11")
    .action(
      action(async (accountId: string, amount: string, options: { reason: string; key?: string }, command: Command) => {
        const ctx = await contextOf(command);
        const { data } = await ctx.client.merch.POST("/api/v1/token-accounts/{accountId}/credit", {
          params: { path: { accountId } },
          body: {
            amount: Number(amount),
            reason: options.reason,
            ...(options.key ? { idempotencyKey: options.key } : {}),
          },
        });
        ctx.print(data, () => `balance now ${data?.account.balance}`);
      }),
    );
}
