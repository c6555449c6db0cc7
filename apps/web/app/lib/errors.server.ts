import { languageOf } from "../i18n/language.server.ts";
import { errorText } from "./errors.ts";

/**
 * What a person reads when a call of an action or loader fails, in the language of the page that asked
 * (`?lang=`, the cookie, `Accept-Language`): see errorText.
 */
export const userMessage = (error: unknown, request: Request): string => errorText(error, languageOf(request).lang);
