import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { requireUser } from "../../lib/auth.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./connections.routes.ts";
import { CONNECTION_PROVIDERS } from "./connections.routes.ts";
import { authorizeUrl as consentUrl, LINKED, notConfigured, PROVIDER_NAMES } from "./connections.ts";
import { unlink } from "./provider-accounts.ts";

export const listConnections: AppRouteHandler<typeof routes.listConnections> = async (c) => {
  const { user } = await requireUser(c);
  const { db, config } = c.var.deps;
  const t = schema.providerAccounts;
  const rows = await db
    .select({ provider: t.provider, displayName: t.displayName, createdAt: t.createdAt })
    .from(t)
    .where(eq(t.userUuid, user.uuid));
  return c.json(
    CONNECTION_PROVIDERS.map((provider) => {
      const row = rows.find((r) => LINKED[provider].includes(r.provider));
      return {
        provider,
        connected: !!row,
        displayName: row?.displayName ?? null,
        connectedAt: row?.createdAt.toISOString() ?? null,
        notConfigured: notConfigured(config.integrations, config.providers.appleMusicDeveloperToken, provider),
      };
    }),
    200,
  );
};

export const authorizeUrl: AppRouteHandler<typeof routes.authorizeUrl> = async (c) => {
  const { provider } = c.req.valid("param");
  return c.json({ url: consentUrl(c.var.deps.config.integrations, provider, c.req.valid("json")) }, 200);
};

export const disconnect: AppRouteHandler<typeof routes.disconnect> = async (c) => {
  const { user } = await requireUser(c);
  const { provider } = c.req.valid("param");
  const { db } = c.var.deps;
  const name = PROVIDER_NAMES[provider];
  if (provider === "discord") {
    // An account made by signing in with Discord may have no other way in.
    const [row] = await db
      .select({ email: schema.users.email, passwordHash: schema.users.passwordHash })
      .from(schema.users)
      .where(eq(schema.users.uuid, user.uuid));
    if (row && !row.email && !row.passwordHash)
      throw conflict("Discord is how you sign in: add an email or a password before disconnecting it.");
  }
  let gone = false;
  for (const linked of LINKED[provider]) if (await unlink(db, user.uuid, linked)) gone = true;
  if (!gone) throw notFound(`${name} is not connected.`);
  return c.body(null, 204);
};
