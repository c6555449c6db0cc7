import { type BoothCommand, table } from "../context.ts";

const many = (value: string, previous: string[] = []) => [...previous, value];
const BADGES = ["VERIFIED", "PLATINUM", "DOUBLE_PLATINUM", "JQBX", "STAFF", "IDENTITY_VERIFIED"] as const;
type Badge = (typeof BADGES)[number];

export function userCommands(program: BoothCommand) {
  const users = program.command("users").description("Find and moderate accounts (staff, moderators, admins)");
  users
    .command("list")
    .description("List accounts, with the admin list's filter and sort syntax")
    .option("-f, --filter <field||$op||value>", "a filter, repeatable (e.g. email||$cont||@example.com)", many)
    .option("--or <field||$op||value>", "an alternative filter, repeatable", many)
    .option("-s, --sort <field,ASC|DESC>", "a sort, repeatable", many)
    .option("--search <json>", 'a nestjsx `s` search, e.g. \'{"nickname":{"$cont":"dj"}}\'')
    .option("--limit <n>", "page size", "25")
    .option("--page <n>", "page", "1")
    .json()
    .examples(
      "booth users list -f 'roles||$cont||moderator'",
      "booth users list -f 'email||$contL||gmail' -s createdAt,DESC --json",
      "booth users list -f 'isBot||$eq||true' -s nickname,ASC",
    )
    .run(
      async (
        ctx,
        options: { filter?: string[]; or?: string[]; sort?: string[]; search?: string; limit: string; page: string },
      ) => {
        const { data } = await ctx.client.user.GET("/admin/users", {
          params: {
            query: {
              filter: options.filter,
              or: options.or,
              sort: options.sort,
              ...(options.search ? { s: options.search } : {}),
              limit: Number(options.limit),
              page: Number(options.page),
            } as never,
          },
        });
        ctx.print(
          data,
          () =>
            `${table((data?.data ?? []) as Record<string, unknown>[], ["uuid", "email", "nickname", "roles", "createdAt"])}\npage ${data?.page} of ${data?.pageCount}, ${data?.total} in all`,
        );
      },
    );
  users
    .command("show <uuid>")
    .description("One account, with its profile")
    .json()
    .examples("booth users show 5f0c2a8e-...")
    .run(async (ctx, uuid: string) => {
      const { data } = await ctx.client.user.GET("/admin/users/{id}", {
        params: { path: { id: uuid }, query: { join: "profile" } },
      });
      ctx.print(data);
    });
  users
    .command("create <email>")
    .description("Create an account (admins); the email is marked as created by an admin")
    .option("-p, --password <password>", "its password (else BOOTH_NEW_PASSWORD)")
    .option("-n, --nickname <nickname>", "its nickname")
    .option("-r, --role <role>", "a role, repeatable (default: user)", many)
    .json()
    .examples(
      "booth users create dj@example.com -p 'a long password' -n 'DJ Example'",
      "booth users create mod@example.com -p 'a long password' -r user -r moderator",
    )
    .run(async (ctx, email: string, options: { password?: string; nickname?: string; role?: string[] }) => {
      const password = options.password ?? ctx.settings.BOOTH_NEW_PASSWORD;
      const { data } = await ctx.client.user.POST("/users/admin/sign-up", {
        body: {
          email,
          ...(password ? { password } : {}),
          ...(options.nickname ? { nickname: options.nickname } : {}),
          ...(options.role ? { roles: options.role as never } : {}),
        },
      });
      ctx.print(data, () => `Created ${data?.email} (${data?.uuid})`);
    });
  const sanction = (
    name: "kick" | "ban" | "unban",
    path: "/users/kick" | "/users/ban" | "/users/unban",
    what: string,
  ) =>
    users
      .command(`${name} <uuid>`)
      .description(what)
      .option("-r, --reason <reason>", "why (kept in the moderation log)")
      .examples(`booth users ${name} 5f0c2a8e-...${name === "unban" ? "" : " -r spam"}`)
      .run(async (ctx, uuid: string, options: { reason?: string }) => {
        await ctx.client.user.POST(path, {
          body: {
            userUuid: uuid,
            ...(options.reason && name !== "unban" ? { reason: options.reason } : {}),
          } as never,
        });
        console.log(`${name}: done`);
      });
  sanction("kick", "/users/kick", "End every session of an account (they may sign in again)");
  sanction("ban", "/users/ban", "Ban an account until unbanned");
  sanction("unban", "/users/unban", "Lift the bans of an account");
  users
    .command("temp-ban <uuid>")
    .description("Ban an account for a while")
    .requiredOption("-m, --minutes <n>", "how long")
    .option("-r, --reason <reason>", "why")
    .examples("booth users temp-ban 5f0c2a8e-... -m 1440 -r spam")
    .run(async (ctx, uuid: string, options: { minutes: string; reason?: string }) => {
      const { data } = await ctx.client.user.POST("/users/temporary-ban", {
        body: {
          userUuid: uuid,
          durationMinutes: Number(options.minutes),
          ...(options.reason ? { reason: options.reason } : {}),
        },
      });
      console.log(`banned until ${data?.expiresAt}`);
    });
  users
    .command("add-role <uuid> <role>")
    .description("Grant a global role (global moderators: staff; others: admins)")
    .examples("booth users add-role 5f0c2a8e-... moderator", "booth users add-role 5f0c2a8e-... globalModerator")
    .run(async (ctx, uuid: string, role: string) => {
      const { data } =
        role === "globalModerator"
          ? await ctx.client.user.POST("/users/add-global-moderator-role", { body: { userUuid: uuid } })
          : await ctx.client.user.POST("/users/add-role", { body: { userUuid: uuid, role: role as never } });
      console.log(`roles: ${data?.roles.join(", ")}`);
    });
  users
    .command("capability <uuid> <capability>")
    .description("Give (or with --remove take) uploadMusic or promoteRoom")
    .option("--remove", "take it away")
    .examples(
      "booth users capability 5f0c2a8e-... uploadMusic",
      "booth users capability 5f0c2a8e-... promoteRoom --remove",
    )
    .run(async (ctx, uuid: string, capability: string, options: { remove?: boolean }) => {
      const params = { params: { path: { id: uuid, capability: capability as never } } };
      const { data } = options.remove
        ? await ctx.client.user.DELETE("/users/{id}/capabilities/{capability}", params)
        : await ctx.client.user.PUT("/users/{id}/capabilities/{capability}", params);
      console.log(`capabilities: ${data?.capabilities.join(", ") || "(none)"}`);
    });
  users
    .command("badges <uuid> [badges...]")
    .description(`Set an account's badges (admins): any of ${BADGES.join(", ")}; none clears them`)
    .option("--add", "add these to the badges it has")
    .option("--remove", "take these from the badges it has")
    .examples(
      "booth users badges 5f0c2a8e-... VERIFIED STAFF",
      "booth users badges 5f0c2a8e-... PLATINUM --add",
      "booth users badges 5f0c2a8e-...            # clears them",
    )
    .run(async (ctx, uuid: string, given: string[], options: { add?: boolean; remove?: boolean }) => {
      const unknown = given.filter((b) => !BADGES.includes(b as Badge));
      if (unknown.length) throw new Error(`unknown badge ${unknown.join(", ")}: use ${BADGES.join(", ")}`);
      let badges = given as Badge[];
      if (options.add || options.remove) {
        const { data: current } = await ctx.client.user.GET("/admin/users/{id}", { params: { path: { id: uuid } } });
        const have = (current?.badges ?? []) as Badge[];
        badges = options.add ? [...new Set([...have, ...badges])] : have.filter((b) => !badges.includes(b));
      }
      const { data } = await ctx.client.user.POST("/users/change-badges-admin", { body: { userUuid: uuid, badges } });
      console.log(`badges: ${(data as { badges?: string[] } | undefined)?.badges?.join(", ") || "(none)"}`);
    });
  users
    .command("profile <uuid>")
    .description("Change an account's profile (admins)")
    .option("-n, --nickname <nickname>")
    .option("--color <hex>", "e.g. #8B5CF6")
    .option("--first-name <name>")
    .option("--last-name <name>")
    .option("--bio <text>")
    .option("--avatar <avatarId>", "the avatar it wears")
    .json()
    .examples("booth users profile 5f0c2a8e-... -n 'DJ Aurora' --color '#8B5CF6' --bio 'Ambient at dawn'")
    .run(
      async (
        ctx,
        uuid: string,
        o: { nickname?: string; color?: string; firstName?: string; lastName?: string; bio?: string; avatar?: string },
      ) => {
        const patch = {
          nickname: o.nickname,
          color: o.color,
          firstName: o.firstName,
          lastName: o.lastName,
          bio: o.bio,
          avatarId: o.avatar,
        };
        const body = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
        const { data } = await ctx.client.user.POST("/users/profile-admin", { body: { userUuid: uuid, ...body } });
        ctx.print(data, () => `Profile of ${uuid} updated`);
      },
    );
  for (const [name, what] of [
    ["deactivate", "Deactivate an account (admins): it can no longer sign in and its profile is hidden"],
    ["reactivate", "Reactivate a deactivated account (admins)"],
  ] as const)
    users
      .command(`${name} <uuid>`)
      .description(what)
      .examples(`booth users ${name} 5f0c2a8e-...`)
      .run(async (ctx, uuid: string) => {
        const params = { params: { path: { id: uuid } } };
        if (name === "deactivate") await ctx.client.user.DELETE("/users/deactivate/{id}", params);
        else await ctx.client.user.POST("/users/reactivate/{id}", params);
        console.log(`${name}d`);
      });
  users
    .command("deactivation-requests")
    .description("Pending deactivation requests, oldest first (moderators)")
    .json()
    .examples("booth users deactivation-requests --json")
    .run(async (ctx) => {
      const { data } = await ctx.client.user.GET("/users/list-deactivate", { params: { query: {} } });
      const rows = ((data as { data?: unknown[] } | undefined)?.data ?? data ?? []) as Record<string, unknown>[];
      ctx.print(data, () => table(rows, ["uuid", "email", "nickname", "requestedDeactivationAt"]));
    });
  users
    .command("cancel-deactivation <uuid>")
    .description("Cancel an account's pending deactivation request")
    .examples("booth users cancel-deactivation 5f0c2a8e-...")
    .run(async (ctx, uuid: string) => {
      await ctx.client.user.POST("/users/cancel-requested-deactivate", { body: { userUuid: uuid } });
      console.log("deactivation request cancelled");
    });
}

export function tokenCommands(program: BoothCommand) {
  const tokens = program.command("tokens").description("Token accounts (admins)");
  tokens
    .command("credit <accountId> <amount>")
    .description("Credit tokens to an account, once per --key")
    .requiredOption("-r, --reason <reason>", "why (kept in the ledger)")
    .option("-k, --key <key>", "an idempotency key: the same key never credits twice")
    .json()
    .examples("booth tokens credit 8e1a... 500 -r 'contest prize' -k contest-2026-11")
    .run(async (ctx, accountId: string, amount: string, options: { reason: string; key?: string }) => {
      const { data } = await ctx.client.merch.POST("/api/v1/token-accounts/{accountId}/credit", {
        params: { path: { accountId } },
        body: {
          amount: Number(amount),
          reason: options.reason,
          ...(options.key ? { idempotencyKey: options.key } : {}),
        },
      });
      ctx.print(data, () => `balance now ${data?.account.balance}`);
    });
  tokens
    .command("show <accountId>")
    .description("A token account's balance")
    .json()
    .examples("booth tokens show 8e1a...")
    .run(async (ctx, accountId: string) => {
      const { data } = await ctx.client.merch.GET("/api/v1/token-accounts/{accountId}", {
        params: { path: { accountId } },
      });
      ctx.print(data, () => `${accountId}: balance ${data?.balance}, held ${data?.held}`);
    });
}
