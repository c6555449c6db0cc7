import { type Db, schema, type Tx } from "@booth/db";
import type { PhoneValidationStatus } from "@booth/db/schema";
import { eq } from "drizzle-orm";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { errorMessage } from "../../lib/error-codes.ts";
import { firstRow } from "../../lib/rows.ts";
import { MAX_CODE_ATTEMPTS } from "./codes.ts";

export const PHONE_REFUSED = errorMessage("PHONE_REFUSED");

/** The rules phone sign-in and verification apply; GET /phone-validation/fraudConstants publishes them. */
export const FRAUD_CONSTANTS = {
  /** Line types that are not a person's own mobile: refused as VOIP. */
  refusedLineTypes: [
    "VOIP",
    "PERSONAL_NUMBER",
    "PAGER",
    "UAN",
    "VOICEMAIL",
    "SHARED_COST",
    "PREMIUM_RATE",
    "TOLL_FREE",
  ],
  /** Line types refused as INVALID: not mobile at all. */
  notMobileLineTypes: ["FIXED_LINE"],
  codeTtlSeconds: 600,
  maxCodeAttempts: MAX_CODE_ATTEMPTS,
  codesPerPhonePerHour: 5,
  codesPerAddressPerHour: 20,
  validationsPerAddressPerHour: 60,
} as const;

export interface PhoneCheck {
  /** E.164 when the input could be parsed, else the input as given. */
  phone: string;
  status: PhoneValidationStatus;
  country: string | null;
  lineType: string | null;
  whitelisted: boolean;
}

/** E.164 form of a number, or null when it cannot be parsed. */
export function toE164(raw: string): string | null {
  try {
    return parsePhoneNumberFromString(raw.trim())?.number ?? null;
  } catch {
    return null;
  }
}

/** Classifies a number (whitelisted numbers are always VALID) and records the result as a recent validation. */
export async function checkPhone(
  db: Db | Tx,
  raw: string,
  now: Date,
  userUuid: string | null = null,
): Promise<PhoneCheck> {
  let parsed: ReturnType<typeof parsePhoneNumberFromString>;
  try {
    parsed = parsePhoneNumberFromString(raw.trim());
  } catch {
    parsed = undefined;
  }
  let result: PhoneCheck;
  if (!parsed) {
    result = {
      phone: raw.trim().slice(0, 64),
      status: "VALIDATION_ERROR",
      country: null,
      lineType: null,
      whitelisted: false,
    };
  } else {
    const phone = parsed.number;
    const listed = await firstRow(db, schema.phoneWhitelist, eq(schema.phoneWhitelist.phone, phone));
    const lineType = parsed.getType() ?? null;
    let status: PhoneValidationStatus = "VALID";
    if (!listed) {
      if (!parsed.isValid()) status = "INVALID";
      else if (lineType && (FRAUD_CONSTANTS.refusedLineTypes as readonly string[]).includes(lineType)) status = "VOIP";
      else if (lineType && (FRAUD_CONSTANTS.notMobileLineTypes as readonly string[]).includes(lineType))
        status = "INVALID";
    }
    result = { phone, status, country: parsed.country ?? null, lineType, whitelisted: !!listed };
  }
  await db.insert(schema.phoneValidations).values({
    phone: result.phone,
    status: result.status,
    country: result.country,
    lineType: result.lineType,
    userUuid,
    createdAt: now,
  });
  return result;
}
