import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { loadDemoCatalogue } from "./bootstrap.ts";
import type { AppDeps } from "./deps.ts";
import { firstRow } from "./lib/rows.ts";
import type { JobHandlers } from "./ports/jobs.ts";
import { runImport } from "./services/playlist/public.ts";
import { postDjStart } from "./services/room/public.ts";
import { produce, settle } from "./services/upload/public.ts";

/**
 * What each kind of job does. A job may run again after its worker died part-way, so each picks up from what is
 * stored: an upload settles from its status, the demo catalogue skips the tracks it finished, a playlist import goes on
 * from the entry it reached.
 */
export function jobHandlers(deps: AppDeps, print: (line: string) => void = console.log): JobHandlers {
  return {
    async transcode({ uploadId }) {
      const upload = await firstRow(deps.db, schema.songUploads, eq(schema.songUploads.id, uploadId));
      // Deleted meanwhile: nothing to do.
      if (upload) await settle(deps, upload);
    },
    async "generate-song"({ uploadId, holdId, ...request }) {
      await produce(deps, uploadId, holdId, request);
    },
    async "demo-catalogue"({ ownerUuid }) {
      await loadDemoCatalogue(deps, ownerUuid, print);
    },
    async "playlist-import"({ importId }) {
      await runImport(deps, importId);
    },
    async "discord-announce"(announcement) {
      await postDjStart(deps, announcement);
    },
  };
}

/** Works the job queue in this process until `deps.jobs.stop()`; a job that fails is reported (and retried). */
export function startWorker(deps: AppDeps, print?: (line: string) => void) {
  return deps.jobs.work(reported(deps, jobHandlers(deps, print)));
}

/** The handlers, each reporting its failure to the operator (Sentry, or error_reports) before the queue retries it. */
export function reported(deps: AppDeps, handlers: JobHandlers): JobHandlers {
  const wrapped: Record<string, (data: never) => Promise<void>> = {};
  for (const [kind, handler] of Object.entries(handlers) as [string, (data: never) => Promise<void>][])
    wrapped[kind] = async (data) => {
      try {
        await handler(data);
      } catch (err) {
        await deps.errorReporter
          .report(err instanceof Error ? err : new Error(String(err)), { service: "jobs", job: kind })
          .catch(() => undefined);
        throw err;
      }
    };
  return wrapped as unknown as JobHandlers;
}
