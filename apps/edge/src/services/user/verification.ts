import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context.ts";
import { issueCode, numericCode } from "./codes.ts";

export const EMAIL_CODE_TTL = 24 * 3600;

/** Sends a fresh six-digit verification code to an email row's address and notes when it was sent. */
export async function sendVerificationEmail(
  c: Context<AppEnv>,
  email: { id: string; email: string; userUuid: string },
) {
  const { db, clock, mailer } = c.var.deps;
  const now = clock.now();
  const code = numericCode();
  await issueCode(db, {
    purpose: "emailVerification",
    target: email.email,
    userUuid: email.userUuid,
    code,
    now,
    ttlSeconds: EMAIL_CODE_TTL,
  });
  await db.update(schema.emails).set({ lastSentAt: now }).where(eq(schema.emails.id, email.id));
  await mailer.send({
    to: email.email,
    subject: "Verify your email for Booth",
    text: `Your Booth verification code is ${code}. It expires in 24 hours.`,
  });
}
