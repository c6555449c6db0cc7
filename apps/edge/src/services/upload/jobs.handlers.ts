import { ADMINS, requireUser } from "../../lib/auth.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./jobs.routes.ts";

export const listJobs: AppRouteHandler<typeof routes.listJobs> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const jobs = await c.var.deps.jobs.list(c.req.valid("query"));
  return c.json(
    {
      data: jobs.map((job) => ({
        ...job,
        createdAt: job.createdAt.toISOString(),
        startedAt: isoOrNull(job.startedAt),
        finishedAt: isoOrNull(job.finishedAt),
      })),
    },
    200,
  );
};
