import { fileURLToPath } from "node:url";
import { type ChildRun, spawnChild } from "./child-server.ts";

/** The edge package's folder, which its entries (`src/main.node.ts`, `src/main.deno.ts`) start from. */
export const EDGE_DIR = fileURLToPath(new URL("../../", import.meta.url));

/** The edge's Node entry, as `node` starts it from the edge's folder. */
export const NODE_ENTRY = ["--import", "tsx", "src/main.node.ts"] as const;

/**
 * An entry of the edge (by default its Node entry) in a process of its own, as a user starts it: from the edge's
 * folder, on `port`, with `dataDir` as its data folder and the embedded database and cache (no DATABASE_URL, no
 * REDIS_URL; no INIT_CWD, so DATA_DIR is taken as given), and `env` besides.
 */
export function spawnEdgeEntry(options: {
  port: number;
  dataDir: string;
  env: Record<string, string>;
  command?: string;
  args?: readonly string[];
}): ChildRun {
  return spawnChild({
    command: options.command ?? process.execPath,
    args: options.args ?? NODE_ENTRY,
    cwd: EDGE_DIR,
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: options.dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      INIT_CWD: "",
      ...options.env,
    },
  });
}
