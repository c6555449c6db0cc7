/**
 * The edge's house rules, measured over its source (decision 0021). The test in `src/house.test.ts` fails on any
 * breach; `npm run house -w @booth/edge` prints every measure.
 *
 * - A service's files are its own: another service reaches it only through `services/<name>/public.ts` (code
 *   outside the services may also mount its router, `services/<name>/index.ts`, or the registry `services/index.ts`).
 * - A table is written only by the service whose schema file in `packages/db/src/schema/` declares it.
 * - `lib/` is what every layer shares: it touches no table and imports no port, no service and not `deps.ts`;
 *   `ports/` imports no service. The layers, low to high: lib, config, ports, deps (`deps.ts`), services, the app (the rest);
 *   nothing imports a higher layer.
 * - No folder loops: no two folders import each other, directly or around a circle.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";

export const EDGE_SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_DIR = resolve(EDGE_SRC, "../../../packages/db/src/schema");

export interface Breach {
  file: string;
  rule: string;
  detail: string;
}

/** Every table the schema declares, by its TypeScript name and by its SQL name, with the service that owns it. */
export async function tableOwners(): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const name of readdirSync(SCHEMA_DIR)) {
    const service = name.replace(/\.ts$/, "");
    if (!name.endsWith(".ts") || ["index", "columns", "enums"].includes(service)) continue;
    const module: Record<string, unknown> = await import(join(SCHEMA_DIR, name));
    for (const [exported, value] of Object.entries(module)) {
      if (!is(value, PgTable)) continue;
      owners.set(exported, service);
      owners.set(getTableName(value), service);
    }
  }
  return owners;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => relative(EDGE_SRC, join(entry.parentPath, entry.name)));
}

const isTest = (file: string) =>
  /\.test\.ts$|\.suite\.ts$/.test(file) || file.startsWith("testing/") || file === "testing.ts";

/**
 * The folder a file belongs to for the rules: `lib`, `config` (`config.ts`: the settings' schema and types), `ports`,
 * `deps` (`deps.ts`, the types that wire ports into services), `services/<name>`, or `app` (the rest: the app,
 * entries, bootstrap, worker, seed).
 */
export function folderOf(file: string): string {
  const parts = file.split("/");
  if (file === "deps.ts") return "deps";
  if (file === "config.ts" || file === "config-migrate.ts") return "config";
  if (parts[0] === "services" && parts.length > 2) return `services/${parts[1]}`;
  if (parts[0] === "lib" || parts[0] === "ports") return parts[0];
  if (parts[0] === "services") return "services";
  return "app";
}

const LAYERS = ["lib", "config", "ports", "deps", "services", "app"];
const layerOf = (folder: string) => LAYERS.indexOf(folder.startsWith("services") ? "services" : folder);

/** The relative imports of a file (static, re-exports and dynamic), resolved to paths under src. */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"(\.{1,2}\/[^"]+)"/g)) {
    found.push(relative(EDGE_SRC, resolve(EDGE_SRC, dirname(file), match[1]!)));
  }
  return found;
}

/** The tables a file writes: drizzle's insert/update/delete, the row helpers that delete, and raw SQL. */
function writesOf(text: string, owners: Map<string, string>): string[] {
  const tables: string[] = [];
  const patterns = [
    /\.(?:insert|update|delete)\(\s*(?:schema\.)?(\w+)\s*\)/g,
    /\bdeleteFound\(\s*\w+,\s*(?:schema\.)?(\w+)/g,
    /\badminItems\(\s*(?:schema\.)?(\w+)/g,
    /\b(?:insert\s+into|update|delete\s+from)\s+(?:\$\{\s*(?:schema\.)?(\w+)\s*\}|"(\w+)")/gi,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1] ?? match[2];
      if (name && owners.has(name)) tables.push(name);
    }
  }
  return tables;
}

/** The tables a file names at all (reads or writes): `schema.x` or a table imported by name from the database. */
function tablesNamed(text: string, owners: Map<string, string>): string[] {
  const named = new Set<string>();
  for (const match of text.matchAll(/\bschema\.(\w+)/g)) if (owners.has(match[1]!)) named.add(match[1]!);
  for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"@booth\/db(?:\/schema)?"/g)) {
    for (const item of match[1]!.split(",")) {
      const name = item
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]!;
      if (owners.has(name)) named.add(name);
    }
  }
  return [...named];
}

export interface House {
  breaches: Breach[];
  /** Folder -> the folders it imports (non-test files). */
  folders: Map<string, Set<string>>;
  /** Circles of folders that import each other. */
  loops: string[][];
}

/** The house of the edge's source as it is on disk (test files and `testing/` aside). */
export async function inspectHouse(): Promise<House> {
  const files: Record<string, string> = {};
  for (const file of sourceFiles(EDGE_SRC)) if (!isTest(file)) files[file] = readFileSync(join(EDGE_SRC, file), "utf8");
  return findBreaches(files);
}

/** The breaches and loops of a set of files, by their paths under src. */
export async function findBreaches(files: Record<string, string>): Promise<House> {
  const owners = await tableOwners();
  const breaches: Breach[] = [];
  const folders = new Map<string, Set<string>>();
  for (const [file, text] of Object.entries(files)) {
    const from = folderOf(file);
    for (const target of importsOf(file, text)) {
      const to = folderOf(target);
      if (to !== from) {
        if (!folders.has(from)) folders.set(from, new Set());
        folders.get(from)!.add(to);
      }
      const parts = target.split("/");
      if (to.startsWith("services/") && to !== from) {
        const door = parts.slice(2).join("/");
        const allowed = door === "public.ts" || (!from.startsWith("services/") && door === "index.ts");
        if (!allowed) breaches.push({ file, rule: "another service's files", detail: target });
      }
      if (from === "lib" && layerOf(to) > layerOf("lib")) {
        breaches.push({ file, rule: "lib imports up", detail: target });
      } else if (from === "ports" && to.startsWith("services")) {
        breaches.push({ file, rule: "ports import a service", detail: target });
      } else if (layerOf(to) > layerOf(from)) {
        breaches.push({ file, rule: "import up the tree", detail: target });
      }
    }
    if (from === "lib") {
      for (const table of tablesNamed(text, owners))
        breaches.push({ file, rule: "lib touches a table", detail: table });
    }
    if (from.startsWith("services/")) {
      const service = from.slice("services/".length);
      for (const table of writesOf(text, owners)) {
        if (owners.get(table) !== service) {
          breaches.push({ file, rule: "writes another service's table", detail: `${table} (${owners.get(table)})` });
        }
      }
    }
  }
  return { breaches, folders, loops: loopsOf(folders) };
}

/** The strongly connected groups of more than one folder (Tarjan). */
function loopsOf(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) loops.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}
