import { type Db, schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { newestFirst } from "../../lib/pages.ts";
import { normalizeEmail } from "./accounts.ts";

/** Addresses are kept as they were sent to: emails normalised, phone numbers in E.164 (no spaces or dashes). */
const recipient = (to: string) => (to.includes("@") ? normalizeEmail(to) : to.replace(/[\s().-]/g, ""));

/** The latest messages kept in the outbox (to one address, when given), newest first, and how many there are. */
export async function outboxPage(db: Db, query: { limit: number; to?: string | undefined }) {
  const where = query.to ? eq(schema.outbox.to, recipient(query.to)) : undefined;
  const { rows, total } = await newestFirst(db, schema.outbox, where, { limit: query.limit, offset: 0 });
  return {
    data: rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      to: row.to,
      subject: row.subject,
      body: row.body,
      createdAt: row.createdAt.toISOString(),
    })),
    total,
  };
}
