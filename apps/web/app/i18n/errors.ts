import { ERROR_MESSAGES, type SpecificErrorCode } from "@booth/sdk/error-codes";

/**
 * The texts of the edge's refusals, keyed by the `code` each error answer carries (apps/edge/src/lib/error-codes.ts):
 * lib/errors.ts shows the person's language's text for a code, else the edge's own message. The English texts are the
 * edge's messages, from the contract they share (`@booth/sdk/error-codes`); `generic` stands for any 5xx, and
 * VALIDATION_FAILED wraps the first bad field the edge named ({{message}}).
 */
const en: Record<"generic" | SpecificErrorCode, string> = {
  generic: "Something went wrong, please try again",
  ...ERROR_MESSAGES,
  VALIDATION_FAILED: "{{message}}",
};

export const errors = en;
