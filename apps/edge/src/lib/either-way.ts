import { type AnyColumn, and, eq, or, type SQLWrapper } from "drizzle-orm";

/**
 * A relation between two users whichever of them started it (a block, a friendship, an invitation, a fan link): the
 * row's `from` column holds `a` and its `to` column `b`, or the other way round.
 */
export const eitherWay = (from: AnyColumn, to: AnyColumn, a: string | SQLWrapper, b: string | SQLWrapper) =>
  or(and(eq(from, a), eq(to, b)), and(eq(from, b), eq(to, a)));
