// The release step (`npm run migrate`): brings the database up to date (the schema, the job queue's tables and its
// queues with their options) and exits. Safe beside running instances and other migrations: they take turns under an
// advisory lock. A failure is one line naming its cause, and a failed exit.
import { createDb } from "@booth/db";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { readMigrateSettings } from "./config-migrate.ts";
import { jobSettingsFrom } from "./ports/jobs.ts";
import { exitOnStartFailure, startStep } from "./start-failure.ts";

const exitOnFailure = exitOnStartFailure("Booth migrate");
const settings = await Promise.resolve()
  .then(() => readMigrateSettings(process.env))
  .catch(exitOnFailure);
const url = settings.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set: the embedded database migrates when the edge starts (npm start).");
  process.exit(2);
}
const database = await createDb({
  url,
  max: 1,
  pooled: settings.DATABASE_POOLED,
  directUrl: settings.DATABASE_DIRECT_URL,
});
const started = Date.now();
console.log(`Booth ${BOOTH_VERSION}: migrating the database (waits for any other migration to finish first)...`);
await startStep("migrating the database", async () => database.migrate({ jobs: jobSettingsFrom(settings) }))
  .finally(() => database.close())
  .catch(exitOnFailure);
console.log(`Database up to date (${Date.now() - started} ms)`);
