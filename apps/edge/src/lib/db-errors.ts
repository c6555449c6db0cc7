import type { HttpError } from "./errors.ts";

/** A unique constraint refused the write (PostgreSQL 23505): two requests raced for one name, or it is taken. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/**
 * Runs a write and answers `refusal` (a 400, 403 or 409 the route documents) when a unique constraint refuses it,
 * so a race between two requests ends as the same answer as a taken name, never a 500.
 */
export async function uniqueOr<T>(write: () => Promise<T>, refusal: () => HttpError): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw refusal();
    throw err;
  }
}

/** The SQLSTATE of a statement PostgreSQL refused, whether the driver's error carries it or Drizzle's wrapper does. */
export function postgresCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } } | null | undefined;
  return e?.code ?? e?.cause?.code;
}
