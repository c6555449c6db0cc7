import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import { errorBody } from "./errors.ts";

/** One message per bad field, "field: reason", in the order zod found them. */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by every route, whatever its schemas.
export const validationHook: Hook<any, any, any, any> = (result, c) => {
  if (!result.success) return c.json(errorBody(400, formatIssues(result.error)), 400);
};
