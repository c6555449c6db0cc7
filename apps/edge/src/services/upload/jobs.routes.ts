import { z } from "@hono/zod-openapi";
import { contracts, ok } from "../../lib/openapi.ts";
import { JOB_KINDS, JOB_STATES } from "../../ports/jobs.ts";

const { authed } = contracts(["Admin"]);

const JobSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(JOB_KINDS),
    state: z.enum(JOB_STATES).openapi({
      description: "created: waiting; active: running; retry: failed, to run again; completed; failed: for good",
    }),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).openapi({ description: "what it works on (an upload's id, ...)" }),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi("Job");

export const listJobs = authed("get", "/admin/jobs", {
  summary: "The latest background jobs (transcoding, generated songs, the demo catalogue), newest first (admins)",
  description: "Each job's state, how many times it ran and its last error, for whoever runs the instance.",
  request: {
    query: z.object({
      kind: z.enum(JOB_KINDS).optional(),
      state: z.enum(JOB_STATES).optional(),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: ok(z.object({ data: z.array(JobSchema) }).openapi("JobList"), 400, 401, 403),
});
