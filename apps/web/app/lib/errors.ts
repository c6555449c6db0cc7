import { BoothApiError } from "@booth/sdk";
import { errors as en } from "../i18n/errors.ts";
import { errors as es } from "../i18n/es/errors.ts";
import type { Language } from "../i18n/index.ts";

export const GENERIC_ERROR = en.generic;

/** The `errors` namespace of each language: the texts of the edge's error codes. */
const TEXTS: Record<Language, Record<string, string>> = { en, es };

/** What the edge answered: its status, message (the first of a list) and code; undefined for anything else. */
export function edgeAnswer(error: unknown): { status: number; message: string; code?: string } | undefined {
  if (error instanceof BoothApiError) return { status: error.status, message: error.message, code: error.code };
  if (error && typeof error === "object" && "statusCode" in error && "message" in error) {
    const { statusCode, message, code } = error as { statusCode: unknown; message: unknown; code?: unknown };
    const text = Array.isArray(message) ? message[0] : message;
    if (typeof statusCode !== "number" || typeof text !== "string") return undefined;
    return { status: statusCode, message: text, ...(typeof code === "string" ? { code } : {}) };
  }
  return undefined;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What a person reads when a call fails, in their language: for a refusal (below 500), the text of its `code` in the
 * `errors` namespace of `lang` when the web has one, else the edge's message, first letter capitalised (spec 8);
 * for a 5xx, or anything that is not an answer of the edge, the generic text. The one place edge errors become words:
 * actions reach it through `userMessage(error, request)` (errors.server.ts).
 */
export function errorText(error: unknown, lang: Language = "en"): string {
  const texts = TEXTS[lang] ?? en;
  const answer = edgeAnswer(error);
  if (!answer) {
    // Not an answer of the edge: a bug or an outage, worth a line in the log.
    console.error(error);
    return texts.generic ?? GENERIC_ERROR;
  }
  if (answer.status >= 500) return texts.generic ?? GENERIC_ERROR;
  const message = capitalised(answer.message);
  const text = answer.code && Object.hasOwn(texts, answer.code) ? texts[answer.code] : undefined;
  return text ? text.replaceAll("{{message}}", message) : message;
}

export const isApiError = (error: unknown, status?: number): error is BoothApiError =>
  error instanceof BoothApiError && (status === undefined || error.status === status);
