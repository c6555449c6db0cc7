import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";

let chunk: string | null | undefined;

/**
 * Where the built app serves hls.js (the chunk `lib/lazy.ts` imports: `/assets/hls.light-<hash>.js`), for a room page
 * whose song is HLS to preload while its own scripts load, rather than ask for it after hydrating. Read once from the
 * client build beside the server build this module was bundled into (build/client/assets); null where there is
 * none (the dev server runs the sources).
 */
export function hlsChunk(): string | null {
  if (chunk === undefined) {
    chunk = null;
    const here = fileURLToPath(import.meta.url);
    const build = here.lastIndexOf(`${sep}build${sep}server${sep}`);
    if (build !== -1)
      try {
        const file = readdirSync(join(here.slice(0, build), "build", "client", "assets")).find((f) =>
          /^hls\.light-[\w-]+\.js$/.test(f),
        );
        if (file) chunk = `/assets/${file}`;
      } catch {
        // No client build: nothing to preload.
      }
  }
  return chunk;
}
