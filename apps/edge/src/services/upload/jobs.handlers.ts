import { ADMINS, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./jobs.routes.ts";

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const listJobs: AppRouteHandler<typeof routes.listJobs> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const jobs = await c.var.deps.jobs.list(c.req.valid("query"));
  return c.json(
    {
      data: jobs.map((job) => ({
        ...job,
        createdAt: job.createdAt.toISOString(),
        startedAt: iso(job.startedAt),
        finishedAt: iso(job.finishedAt),
      })),
    },
    200,
  );
};
