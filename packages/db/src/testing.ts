import postgres from "postgres";
import { createDb, type Database } from "./index.ts";

/**
 * A fresh, migrated database for one test file: a new database on the server in TEST_DATABASE_URL (dropped on
 * close), or an in-memory PGlite when it is unset. Nothing is shared between files or runs.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await createDb();
    await database.migrate();
    return database;
  }
  const name = `booth_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await createDb({ url: url.toString(), max: 5 });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}
