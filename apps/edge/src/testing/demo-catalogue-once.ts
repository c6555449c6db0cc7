import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inject } from "vitest";
import type { Storage } from "../ports/storage.ts";
import { seedDemoCatalogue } from "../seed/demo-catalogue.ts";
import type { TestApp } from "./app.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder of this test run's own, removed when it ends (./run-setup.ts). */
    testRunFolder: string;
  }
}

export interface DemoSongs {
  /** How many demo tracks (the first artists' first). */
  tracks: number;
  /** How long each plays (a few seconds more for some: seedDemoCatalogue's spread). */
  seconds: number;
}

/**
 * The demo catalogue in a test app's fresh database and storage, made once per test run for each size asked.
 *
 * Making it is ffmpeg synthesising each track and transcoding it into three renditions: on the 2-core CI machine the
 * largest share of a browser suite's start, paid again by each suite that asked for the same songs. The first test of
 * the run to ask for a size makes it for real (the upload pipeline every song goes through) and leaves what it made,
 * its database rows and its stored objects, in the run's folder; every later one, in any worker, copies them into its
 * own database and storage. A worker that finds another making the same size waits for it. Outside a vitest run with
 * the run folder (./run-setup.ts) it is made for real each time; a copy the database refuses fails, naming the folder.
 */
export async function demoCatalogueOnce(t: TestApp, songs: DemoSongs) {
  const folder = runFolder();
  if (!folder) return seedDemoCatalogue(t.deps, demoOptions(songs));
  const snapshot = join(folder, `demo-${songs.tracks}x${songs.seconds}`);
  const lock = `${snapshot}.lock`;
  for (;;) {
    if (existsSync(snapshot)) return restore(t, snapshot);
    try {
      await mkdir(lock);
    } catch {
      // Another worker makes it; a lock older than ten minutes is a dead worker's.
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > 600_000) await rm(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (existsSync(snapshot)) return restore(t, snapshot);
      return await makeAndKeep(t, songs, snapshot);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/** seedDemoCatalogue's options for a size: as many per artist as it takes, at most `tracks` in all. */
const demoOptions = ({ tracks, seconds }: DemoSongs) => ({ perArtist: Math.ceil(tracks / 4), tracks, seconds });

function runFolder() {
  try {
    return inject("testRunFolder") || null;
  } catch {
    return null;
  }
}

interface Kept {
  /** How many tracks it holds. */
  added: number;
  /** Each table the catalogue wrote rows to, with those rows as PostgreSQL's JSON of them. */
  tables: { name: string; columns: string[]; serials: string[]; rows: string }[];
  objects: { key: string; contentType: string; file: string }[];
}

/** Makes the catalogue for real, recording the objects it stores and then its rows; kept in `snapshot`. */
async function makeAndKeep(t: TestApp, songs: DemoSongs, snapshot: string) {
  // The copy assumes a fresh database: the catalogue's rows are then all the rows there are.
  const before = await tablesWithRows(t);
  const objects = new Map<string, { data: Uint8Array; contentType: string }>();
  const storage: Storage = {
    ...t.deps.storage,
    async put(key, data, contentType) {
      objects.set(key, { data, contentType });
      return t.deps.storage.put(key, data, contentType);
    },
  };
  const added = await seedDemoCatalogue({ ...t.deps, storage }, demoOptions(songs));
  if (before.length > 0 || added !== songs.tracks) return added;
  const kept: Kept = { added, tables: [], objects: [] };
  for (const name of await tablesWithRows(t)) {
    const { rows } = await t.sql.executeSql(`SELECT coalesce(json_agg(x), '[]')::text AS rows FROM public."${name}" x`);
    kept.tables.push({ name, ...(await columnsOf(t, name)), rows: String(rows[0]?.rows) });
  }
  const building = `${snapshot}.${process.pid}`;
  await mkdir(building, { recursive: true });
  for (const [i, [key, { data, contentType }]] of [...objects].entries()) {
    await writeFile(join(building, `o${i}`), data);
    kept.objects.push({ key, contentType, file: `o${i}` });
  }
  await writeFile(join(building, "kept.json"), JSON.stringify(kept));
  await rename(building, snapshot);
  return added;
}

/** Copies a kept catalogue into the test app's database (one transaction) and storage; answers how many tracks. */
async function restore(t: TestApp, snapshot: string) {
  const kept = JSON.parse(await readFile(join(snapshot, "kept.json"), "utf8")) as Kept;
  const tag = `$kept_${crypto.randomUUID().replaceAll("-", "")}$`;
  const statements = kept.tables.flatMap(({ name, columns, serials, rows }) => {
    const list = columns.map((c) => `"${c}"`).join(", ");
    return [
      `INSERT INTO public."${name}" (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} ` +
        `FROM json_populate_recordset(null::public."${name}", ${tag}${rows}${tag})`,
      ...serials.map(
        (c) => `SELECT setval(pg_get_serial_sequence('public."${name}"', '${c}'), max("${c}")) FROM public."${name}"`,
      ),
    ];
  });
  // The rows refer to each other both ways (an upload to its song, the song to its upload): the foreign keys are
  // checked by triggers, which a replica's session does not fire; the rows are those a real run wrote.
  try {
    await t.sql.executeSql(`BEGIN; SET LOCAL session_replication_role = replica; ${statements.join("; ")}; COMMIT;`);
  } catch (error) {
    throw new Error(`could not copy the kept demo catalogue (${snapshot}): ${String(error)}`);
  }
  for (const { key, contentType, file } of kept.objects)
    await t.deps.storage.put(key, new Uint8Array(await readFile(join(snapshot, file))), contentType);
  return kept.added;
}

async function tablesWithRows(t: TestApp) {
  const { rows } = await t.sql.executeSql(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const found: string[] = [];
  for (const { name } of rows) {
    const { rows: first } = await t.sql.executeSql(`SELECT 1 FROM public."${name}" LIMIT 1`);
    if (first.length > 0) found.push(String(name));
  }
  return found;
}

/** A table's columns a row can be given (not generated ones), and those a sequence numbers. */
async function columnsOf(t: TestApp, table: string) {
  const { rows } = await t.sql.executeSql(
    `SELECT column_name AS name, (column_default LIKE 'nextval(%' OR is_identity = 'YES') AS serial
     FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
     ORDER BY ordinal_position`,
    [table],
  );
  return {
    columns: rows.map((r) => String(r.name)),
    serials: rows.filter((r) => r.serial === true).map((r) => String(r.name)),
  };
}
