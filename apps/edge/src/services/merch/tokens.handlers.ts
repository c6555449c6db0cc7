import { ADMINS, hasAnyRole, requireService, requireUser } from "../../lib/auth.ts";
import { conflict, forbidden, found } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import {
  ACCOUNT_NOT_FOUND,
  accountView,
  credit,
  findAccount,
  inLedger,
  openTokenAccount,
  resolveHold,
  transactionView,
} from "./ledger.ts";
import type * as routes from "./tokens.routes.ts";

export const openAccount: AppRouteHandler<typeof routes.openAccount> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const account = await openTokenAccount(db, user.uuid, clock.now(), () =>
    conflict("You already have a token account."),
  );
  return c.json(accountView(account), 201);
};

export const ownAccount: AppRouteHandler<typeof routes.ownAccount> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const account = found(await findAccount(c.var.deps.db, { userUuid: user.uuid }), ACCOUNT_NOT_FOUND);
  return c.json(accountView(account), 200);
};

export const getAccount: AppRouteHandler<typeof routes.getAccount> = async (c) => {
  const { accountId } = c.req.valid("param");
  const account = await findAccount(c.var.deps.db, { id: accountId });
  if (c.var.auth?.type !== "service") {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    if (account && account.userUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden();
  }
  return c.json(accountView(found(account, ACCOUNT_NOT_FOUND)), 200);
};

const resolve =
  (outcome: "commit" | "voided"): AppRouteHandler<typeof routes.commitHold> =>
  async (c) => {
    await requireService(c);
    const body = c.req.valid("json");
    const key = body.idempotencyKey ?? c.req.valid("header")["idempotency-key"];
    const { db, clock } = c.var.deps;
    const result = await inLedger(db, (tx) => resolveHold(tx, body.holdId, outcome, clock.now(), key));
    return c.json({ transaction: transactionView(result.transaction), account: accountView(result.account) }, 200);
  };
export const commitHold = resolve("commit");
export const voidHold = resolve("voided");

export const creditAccount: AppRouteHandler<typeof routes.creditAccount> = async (c) => {
  await requireService(c);
  const body = c.req.valid("json");
  const { accountId } = c.req.valid("param");
  const { db, clock } = c.var.deps;
  const result = await inLedger(db, (tx) =>
    credit(
      tx,
      {
        accountId,
        amount: body.amount,
        reason: body.reason,
        idempotencyKey: body.idempotencyKey ?? c.req.valid("header")["idempotency-key"],
      },
      clock.now(),
    ),
  );
  const fresh = await findAccount(db, { id: result.account.id });
  return c.json(
    { transaction: transactionView(result.transaction), account: accountView(fresh ?? result.account) },
    200,
  );
};
