import { BoothApiError } from "@booth/sdk";

export const GENERIC_ERROR = "Something went wrong, please try again";

/** What a person reads when a call fails (spec 8): the server's message below 500, else the generic text. */
export function userMessage(error: unknown): string {
  if (error instanceof BoothApiError) return error.userMessage;
  if (error && typeof error === "object" && "statusCode" in error && "message" in error) {
    const { statusCode, message } = error as { statusCode: number; message: string };
    if (statusCode < 500 && message) return message.charAt(0).toUpperCase() + message.slice(1);
  }
  // Not an answer of the edge: a bug or an outage, worth a line in the log.
  console.error(error);
  return GENERIC_ERROR;
}

export const isApiError = (error: unknown, status?: number): error is BoothApiError =>
  error instanceof BoothApiError && (status === undefined || error.status === status);
