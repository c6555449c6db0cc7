import type { Context } from "hono";
import { requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { accessibleCrate, type SpecialKind } from "./crates.ts";

/** For handlers: the signed-in caller (a user or bot) and the crate they name, if they may read or edit it. */
export async function callerCrate(c: Context<AppEnv>, target: string | SpecialKind, access: "read" | "write") {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  return { user, crate: await accessibleCrate(db, user.uuid, target, access, clock.now()) };
}
