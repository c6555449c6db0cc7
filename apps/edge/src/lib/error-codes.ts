/**
 * The edge's side of its error codes: the codes and their English messages are a contract shared with the clients
 * (`@booth/sdk/error-codes`, where the rules for adding one are); here, how a throw site reads a message and how an
 * answer gets its code.
 */
import {
  ERROR_MESSAGES,
  type ErrorCode,
  type GenericErrorCode,
  OTHER_ERROR,
  type SpecificErrorCode,
  STATUS_CODES,
} from "@booth/sdk/error-codes";

export {
  ERROR_CODES,
  ERROR_MESSAGES,
  type ErrorCode,
  type GenericErrorCode,
  isErrorCode,
  OTHER_ERROR,
  type SpecificErrorCode,
  STATUS_CODES,
} from "@booth/sdk/error-codes";

/** The English message of a specific code. */
export const errorMessage = (code: SpecificErrorCode): string => ERROR_MESSAGES[code];

const CODE_OF_MESSAGE = new Map<string, SpecificErrorCode>(
  (Object.entries(ERROR_MESSAGES) as [SpecificErrorCode, string][]).map(([code, message]) => [message, code]),
);

/**
 * The code of an error answer: the one its thrower gave, else the specific code of its message, else
 * VALIDATION_FAILED for a 400 listing bad fields, else the status's generic code.
 */
export function codeFor(status: number, message: string | string[], given?: ErrorCode): ErrorCode {
  if (given) return given;
  if (Array.isArray(message)) {
    if (status === 400) return "VALIDATION_FAILED";
    if (message.length === 1) return codeFor(status, message[0] ?? "");
  } else {
    const specific = CODE_OF_MESSAGE.get(message);
    if (specific) return specific;
  }
  return (STATUS_CODES as Record<number, GenericErrorCode>)[status] ?? OTHER_ERROR;
}
