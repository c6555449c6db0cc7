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
  JOB_TIMEOUT_SECONDS: setting
    .integer({ min: 1 })
    .optional()
    .describe("How long a job may run, in seconds, before it counts as lost and runs again (pg-boss's default unset)."),
};

export const migrateSettingsSchema = z.object(databaseSettings);
export type MigrateSettings = z.output<typeof migrateSettingsSchema>;

/** The release step's settings, read once; throws a `SettingsError` naming every bad one. */
export const readMigrateSettings = (environment: Environment) =>
  readSettings("Booth migrate", migrateSettingsSchema, environment);
