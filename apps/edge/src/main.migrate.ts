// The release step (`npm run migrate`): brings the database up to date and exits. Safe beside running instances and
// other migrations: they take turns under an advisory lock.
import { createDb } from "@booth/db";
import { BOOTH_VERSION } from "@booth/sdk/version";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set: the embedded database migrates when the edge starts (npm start).");
  process.exit(2);
}
const database = await createDb({ url, max: 1 });
try {
  const started = Date.now();
  console.log(`Booth ${BOOTH_VERSION}: migrating the database (waits for any other migration to finish first)...`);
  await database.migrate();
  console.log(`Database up to date (${Date.now() - started} ms)`);
} finally {
  await database.close();
}
