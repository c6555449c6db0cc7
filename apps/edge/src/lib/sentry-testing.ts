import { createRoute, z } from "@hono/zod-openapi";
import { ADMINS, requireUser } from "./auth.ts";
import { HttpError } from "./errors.ts";
import { bearer, createRouter, errors, json } from "./openapi.ts";

/** `POST /sentry-testing`: admins check that a service's errors reach the error reporter. */
export function sentryTestingRouter(service: string) {
  const router = createRouter();
  router.openapi(
    createRoute({
      method: "post",
      path: "/sentry-testing",
      tags: ["Status"],
      summary: `Report a test error from the ${service} service to the error reporter (admins)`,
      security: bearer,
      responses: {
        200: json(z.object({ reportId: z.string(), reporter: z.string() }).openapi("ErrorReported")),
        ...errors(401, 403, 502),
      },
    }),
    async (c) => {
      await requireUser(c, { roles: ADMINS });
      const { errorReporter, logger } = c.var.deps;
      const error = new Error(`Test error from the ${service} service, sent by an admin`);
      try {
        return c.json(
          {
            reportId: await errorReporter.report(error, { service, requestId: c.get("requestId") }),
            reporter: errorReporter.kind,
          },
          200,
        );
      } catch (err) {
        logger({ level: "error", msg: "error reporter failed", err: String(err) });
        throw new HttpError(502, "The error reporter could not be reached.");
      }
    },
  );
  return router;
}
