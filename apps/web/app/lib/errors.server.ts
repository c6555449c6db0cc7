import { languageOf } from "../i18n/language.server.ts";
import { errorText, isApiError } from "./errors.ts";

/**
 * What a person reads when a call of an action or loader fails, in the language of the page that asked
 * (`?lang=`, the cookie, `Accept-Language`): see errorText.
 */
export const userMessage = (error: unknown, request: Request): string => errorText(error, languageOf(request).lang);

/**
 * What the edge found, or a 404 page saying "`what` not found": for an empty answer, the edge's 404, or its 400 for an
 * identifier of the wrong shape.
 */
export async function foundOr404<T>(what: string, lookup: Promise<{ data?: T }>): Promise<T> {
  try {
    const found = await lookup;
    if (found.data) return found.data;
  } catch (error) {
    if (!isApiError(error, 404) && !isApiError(error, 400)) throw error;
  }
  throw new Response(`${what} not found`, { status: 404 });
}
