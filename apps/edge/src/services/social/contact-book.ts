import { type Db, schema, type Tx } from "@booth/db";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { CountryCode } from "libphonenumber-js/max";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { badRequest } from "../../lib/errors.ts";
import { sha256 } from "../../lib/hash.ts";
import { jsonPick } from "../../lib/json-rows.ts";
import { profilesOf } from "../user/public.ts";

/** Contacts one upload may carry. */
export const MAX_CONTACTS_PER_UPLOAD = 1000;
/** Contacts one user may keep. */
export const MAX_CONTACTS = 5000;

type Contact = typeof schema.contacts.$inferSelect;
export const contactView = (r: Contact) => jsonPick(r, "id", "name", "phoneHash", "createdAt");

/** The hash a contact's number is kept as: SHA-256 of its E.164 form, so matching needs no stored number. */
export const phoneHash = (e164: string) => sha256(e164);

export interface ContactEntry {
  phone: string;
  name?: string | undefined;
}

/** Adds contacts to a user's book, as hashes of their E.164 numbers; numbers that do not parse are answered back. */
export async function storeContacts(
  db: Db,
  ownerUuid: string,
  entries: ContactEntry[],
  country: string | undefined,
  now: Date,
) {
  const invalid: string[] = [];
  const rows = new Map<string, string | null>();
  for (const entry of entries) {
    let parsed: ReturnType<typeof parsePhoneNumberFromString>;
    try {
      parsed = parsePhoneNumberFromString(entry.phone, country as CountryCode | undefined);
    } catch {
      parsed = undefined;
    }
    if (!parsed?.isValid()) invalid.push(entry.phone);
    else rows.set(await phoneHash(parsed.number), entry.name ?? null);
  }
  const held = await db.$count(schema.contacts, eq(schema.contacts.ownerUuid, ownerUuid));
  if (held + rows.size > MAX_CONTACTS) throw badRequest(`A contact book holds at most ${MAX_CONTACTS} contacts.`);
  const inserted = rows.size
    ? await db
        .insert(schema.contacts)
        .values([...rows].map(([hash, name]) => ({ ownerUuid, phoneHash: hash, name, createdAt: now })))
        .onConflictDoNothing()
        .returning({ id: schema.contacts.id })
    : [];
  return { added: inserted.length, unchanged: rows.size - inserted.length, invalid };
}

/** A user's contacts, by name. */
export const contactsOf = (db: Db | Tx, ownerUuid: string) =>
  db
    .select()
    .from(schema.contacts)
    .where(eq(schema.contacts.ownerUuid, ownerUuid))
    .orderBy(asc(schema.contacts.name), asc(schema.contacts.id));

export async function clearContacts(db: Db | Tx, ownerUuid: string) {
  await db.delete(schema.contacts).where(eq(schema.contacts.ownerUuid, ownerUuid));
}

/** Users whose verified phone identity is in the caller's contacts (not the caller, not anyone blocked either way). */
async function matches(db: Db | Tx, ownerUuid: string) {
  const identityHash = sql`encode(sha256(convert_to(${schema.userIdentities.value}, 'UTF8')), 'hex')`;
  const rows = await db
    .selectDistinct({ uuid: schema.userIdentities.userUuid })
    .from(schema.contacts)
    .innerJoin(schema.userIdentities, sql`${identityHash} = ${schema.contacts.phoneHash}`)
    .where(
      and(
        eq(schema.contacts.ownerUuid, ownerUuid),
        eq(schema.userIdentities.verified, true),
        eq(schema.userIdentities.channel, "sms"),
        ne(schema.userIdentities.userUuid, ownerUuid),
        sql`not exists (select 1 from ${schema.blockedUsers} where (${schema.blockedUsers.blockerUuid} = ${ownerUuid} and ${schema.blockedUsers.blockedUuid} = ${schema.userIdentities.userUuid}) or (${schema.blockedUsers.blockedUuid} = ${ownerUuid} and ${schema.blockedUsers.blockerUuid} = ${schema.userIdentities.userUuid}))`,
      ),
    );
  return rows.map((r) => r.uuid);
}

/** The public profiles of the people in a user's contacts who are on Booth. */
export async function matchingProfiles(db: Db | Tx, ownerUuid: string) {
  return profilesOf(db, await matches(db, ownerUuid));
}

/** Of the people in a user's contacts who are on Booth, the profiles of those already their friends. */
export async function matchingFriendProfiles(db: Db | Tx, ownerUuid: string) {
  const found = await matches(db, ownerUuid);
  if (found.length === 0) return [];
  const friendRows = await db
    .select({ uuid: schema.friends.friendUuid })
    .from(schema.friends)
    .where(and(eq(schema.friends.userUuid, ownerUuid), inArray(schema.friends.friendUuid, found)));
  return profilesOf(
    db,
    friendRows.map((r) => r.uuid),
  );
}
