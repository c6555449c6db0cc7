import type { Schema } from "@booth/sdk";
import { Option } from "commander";
import type { BoothCommand } from "../context.ts";

type Job = Schema<"upload", "Job">;

const KINDS = ["transcode", "generate-song", "demo-catalogue", "playlist-import", "discord-announce"];
const STATES = ["created", "active", "retry", "completed", "failed", "cancelled"];

/** One job on a line: when, what, how it went, and its last error under it. */
const line = (job: Job) => {
  const target = Object.values(job.data).find((v) => typeof v === "string") ?? "";
  const runs = job.attempts === 1 ? "1 run" : `${job.attempts} runs`;
  const head = `${job.createdAt}  ${job.kind.padEnd(14)} ${job.state.padEnd(9)} ${runs.padEnd(7)} ${target}`;
  return job.lastError ? `${head}\n  last error: ${job.lastError}` : head;
};

export function jobsCommand(program: BoothCommand) {
  program
    .command("jobs")
    .description(
      "List the latest background jobs (transcoding, generated songs, the demo catalogue) and how they went (admins)",
    )
    .addOption(new Option("--state <state>", "only jobs in this state").choices(STATES))
    .addOption(new Option("--kind <kind>", "only jobs of this kind").choices(KINDS))
    .option("--limit <n>", "how many (at most 100)", "20")
    .json()
    .examples("booth jobs --state failed", "booth jobs --kind transcode --limit 5 --json")
    .run(async (ctx, options: { limit: string; state?: Job["state"]; kind?: Job["kind"] }) => {
      const { data } = await ctx.client.upload.GET("/admin/jobs", {
        params: {
          query: {
            limit: Number(options.limit),
            ...(options.state ? { state: options.state } : {}),
            ...(options.kind ? { kind: options.kind } : {}),
          },
        },
      });
      const jobs = data?.data ?? [];
      ctx.print(data, () => (jobs.length === 0 ? "(none)" : jobs.map(line).join("\n")));
    });
}
