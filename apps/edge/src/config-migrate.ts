/**
 * The settings of the release step (`npm run migrate`, main.migrate.ts): the database and its job queue's options. The
 * edge's schema (config.ts) holds them too; this file stands alone so the release step reads none of the edge's other
 * settings (deploy/compose.yaml gives it DATABASE_URL only).
 */
import { type Environment, readSettings, setting } from "@booth/sdk/settings";
import { z } from "zod";

/** The database's settings, shared by every entry of the edge. */
export const databaseSettings = {
  DATABASE_URL: setting
    .text()
    .optional()
    .describe(
      "The PostgreSQL every instance shares (postgres://user:password@host:5432/booth); unset, the embedded PGlite in DATA_DIR.",
    ),
  DATABASE_POOLED: setting
    .flag()
    .default(false)
    .describe(
      "true when DATABASE_URL goes through a pooler in transaction mode (PgBouncer, Neon's or Supabase's pooled address): no named prepared statements, and migrations use DATABASE_DIRECT_URL.",
    ),
  DATABASE_DIRECT_URL: setting
    .text()
    .optional()
    .describe(
      "The database's own address beside a pooled DATABASE_URL, for migrations (their advisory lock holds a session); required with DATABASE_POOLED=true where migrations run.",
    ),
  DATABASE_POOL_MAX: setting
    .integer({ min: 1, max: 1000 })
    .default(10)
    .describe(
      "Connections each instance (an edge, the worker) opens to DATABASE_URL at most. The sum over instances must stay under the database's max_connections (PostgreSQL's default: 100), or go through a pooler (docs/capacity.md).",
    ),
  JOB_TIMEOUT_SECONDS: setting
    .integer({ min: 1 })
    .optional()
    .describe("How long a job may run, in seconds, before it counts as lost and runs again (pg-boss's default unset)."),
};

/** What a pooled database needs besides: the pooled address itself, and a direct one where migrations run. */
export function pooledDatabaseProblems(
  settings: Partial<Pick<MigrateSettings, "DATABASE_URL" | "DATABASE_POOLED" | "DATABASE_DIRECT_URL">>,
  migrates: boolean,
): { path: string[]; message: string }[] {
  if (!settings.DATABASE_POOLED) return [];
  if (!settings.DATABASE_URL) return [{ path: ["DATABASE_URL"], message: "is required with DATABASE_POOLED=true" }];
  if (migrates && !settings.DATABASE_DIRECT_URL)
    return [
      {
        path: ["DATABASE_DIRECT_URL"],
        message:
          "is required with DATABASE_POOLED=true where migrations run: the database's own address (a pooler in transaction mode would not keep the migrations' lock)",
      },
    ];
  return [];
}

export const migrateSettingsSchema = z.object(databaseSettings).superRefine(
  (settings, ctx) => {
    for (const problem of pooledDatabaseProblems(settings, true)) ctx.addIssue({ code: "custom", ...problem });
  },
  { when: () => true },
);
export type MigrateSettings = z.output<z.ZodObject<typeof databaseSettings>>;

/** The release step's settings, read once; throws a `SettingsError` naming every bad one. */
export const readMigrateSettings = (environment: Environment) =>
  readSettings("Booth migrate", migrateSettingsSchema, environment);
