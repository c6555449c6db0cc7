import { type Db, schema, type Tx } from "@booth/db";
import type { IdentityChannel } from "@booth/db/schema";
import { and, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { conflict } from "../../lib/errors.ts";
import { jsonRow } from "../../lib/json-rows.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { toE164 } from "./phone-checks.ts";

export const PHONE_TAKEN = errorMessage("PHONE_TAKEN");

type Identity = typeof schema.userIdentities.$inferSelect;

export const identityView = (r: Identity) => jsonRow(r);

/** The code of an identity verification is bound to the user and the number. */
export const verificationTarget = (userUuid: string, phone: string) => `${userUuid}:${phone}`;

/** A 409 when another account has verified this number already. */
export async function refuseTakenPhone(db: Db | Tx, phone: string, userUuid: string) {
  const [taken] = await db
    .select({ id: schema.userIdentities.id })
    .from(schema.userIdentities)
    .where(
      and(
        eq(schema.userIdentities.value, phone),
        eq(schema.userIdentities.verified, true),
        ne(schema.userIdentities.userUuid, userUuid),
      ),
    )
    .limit(1);
  if (taken) throw conflict(PHONE_TAKEN);
}

/** Records the user's phone number as verified and gives them the IDENTITY_VERIFIED badge, in one transaction. */
export async function verifyPhoneIdentity(db: Db, userUuid: string, phone: string, now: Date) {
  const identity = await db.transaction(async (tx) => {
    await refuseTakenPhone(tx, phone, userUuid);
    const row = await returnedRow(
      "identity upsert",
      tx
        .insert(schema.userIdentities)
        .values({ userUuid, channel: "sms", value: phone, verified: true, verifiedAt: now, createdAt: now })
        .onConflictDoUpdate({
          target: [schema.userIdentities.userUuid, schema.userIdentities.channel, schema.userIdentities.value],
          set: { verified: true, verifiedAt: now },
        })
        .returning(),
    );
    await tx
      .update(schema.users)
      .set({
        badges: sql`array_append(array_remove(${schema.users.badges}, 'IDENTITY_VERIFIED'), 'IDENTITY_VERIFIED')`,
        updatedAt: now,
      })
      .where(eq(schema.users.uuid, userUuid));
    return row;
  });
  return identity;
}

export async function createIdentity(
  db: Db,
  input: { userUuid: string; channel: IdentityChannel; value: string; verified: boolean; now: Date },
) {
  return returnedRow(
    "identity insert",
    uniqueOr(
      () =>
        db
          .insert(schema.userIdentities)
          .values({
            userUuid: input.userUuid,
            channel: input.channel,
            value: input.value,
            verified: input.verified,
            verifiedAt: input.verified ? input.now : null,
            createdAt: input.now,
          })
          .returning(),
      () => conflict("This identity already exists."),
    ),
  );
}

export function findIdentities(
  db: Db,
  q: {
    owner: string | null | undefined;
    id?: string | undefined;
    value?: string | undefined;
    channel?: IdentityChannel | undefined;
    verified?: "true" | "false" | undefined;
    limit: number;
  },
) {
  const conditions: SQL[] = [];
  if (q.owner) conditions.push(eq(schema.userIdentities.userUuid, q.owner));
  if (q.id) conditions.push(eq(schema.userIdentities.id, q.id));
  if (q.value) conditions.push(eq(schema.userIdentities.value, toE164(q.value) ?? q.value));
  if (q.channel) conditions.push(eq(schema.userIdentities.channel, q.channel));
  if (q.verified) conditions.push(eq(schema.userIdentities.verified, q.verified === "true"));
  return db
    .select()
    .from(schema.userIdentities)
    .where(and(...conditions))
    .orderBy(desc(schema.userIdentities.createdAt))
    .limit(q.limit);
}

export async function findIdentity(db: Db, id: string) {
  return firstRow(db, schema.userIdentities, eq(schema.userIdentities.id, id));
}

export const deleteIdentity = (db: Db, id: string) =>
  db.delete(schema.userIdentities).where(eq(schema.userIdentities.id, id));
