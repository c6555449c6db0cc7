/**
 * Compiles a Node entry of Booth's (TypeScript) into one JavaScript file with its source map, as the apps' `build`
 * scripts do (apps/edge, apps/web's server, apps/cli). Every bundle is ESM for Node 22+, and:
 *
 * - carries Booth's own workspace packages (`@booth/*`, TypeScript sources Node cannot load);
 * - leaves every other package to node_modules (the web server: its runtime image installs the app's production
 *   dependencies, and the Remix build it loads imports them too); or carries every package but those that must stay
 *   files of their own (`carryPackages: true`, the edge's entries: `KEEP_OUT`); or carries everything
 *   (`selfContained: true`, the CLI's npm package); the build checks that each package left out is a dependency the
 *   app's install brings, so a missing one fails here rather than at the first start;
 * - sees `BOOTH_BUNDLED` as `true`: code that finds files beside its source asks it (packages/db's migrations, the
 *   web server's build/ folder), as a bundle sits elsewhere than its sources.
 *
 * Each file is written whole, then moved in place: a build beside another (two test files) leaves complete files.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUILTIN = new Set(builtinModules);

/**
 * The packages a bundle with `carryPackages` still leaves to node_modules: native addons (@node-rs/argon2), packages
 * that load files beside their own (PGlite's WebAssembly and data; ffmpeg's binary), the ones that hook Node's module
 * loader (Sentry's SDK instruments the packages node_modules loads) and pino, whose transports start worker threads
 * from its files. Carrying the rest halves an edge's start: Node resolved and read some 1,500 module files of
 * packages at each start (about a CPU-second of the 2.1 a start took, measured on the API server's entry).
 */
export const KEEP_OUT = ["@node-rs/argon2", "@electric-sql/pglite", "@ffmpeg-installer/ffmpeg", "@sentry/node", "pino"];

/** The package a bare import names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const isBuiltin = (specifier) => specifier.startsWith("node:") || BUILTIN.has(packageOf(specifier));

/** Every import that leaves the bundle for a package (node_modules), by package name. */
const externalPackages = (metafile) =>
  new Set(
    Object.values(metafile.outputs)
      .flatMap((output) => output.imports)
      .filter((i) => i.external && !isBuiltin(i.path))
      .map((i) => packageOf(i.path)),
  );

/** The folder of package `name` as Node finds it from `dir`: the nearest node_modules/<name> up the tree. */
function packageFolderFrom(dir, name) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The imports left to node_modules that the bundle, from `outdir`, would find elsewhere than the source that wrote
 * them does (another copy, nested under a workspace package), or not at all.
 */
function foundElsewhere(metafile, packageDir, outdir) {
  const problems = new Set();
  for (const [input, { imports }] of Object.entries(metafile.inputs))
    for (const i of imports) {
      if (!i.external || isBuiltin(i.path)) continue;
      const name = packageOf(i.path);
      const fromSource = packageFolderFrom(dirname(resolve(packageDir, input)), name);
      const fromBundle = packageFolderFrom(outdir, name);
      if (fromSource !== fromBundle)
        problems.add(
          `${name} (imported by ${input}: ${fromSource ?? "not installed"}; from the bundle: ${fromBundle ?? "not found"})`,
        );
    }
  return [...problems];
}

/**
 * The packages an install of `packageDir`'s production dependencies brings: its dependencies, and those of the
 * workspace packages (`@booth/*`) among them, which npm installs with it.
 */
async function installedWith(packageDir) {
  const found = new Set();
  const visit = async (dir) => {
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (found.has(name)) continue;
      found.add(name);
      if (name.startsWith("@booth/")) await visit(join(REPO, "packages", name.slice("@booth/".length)));
    }
  };
  await visit(packageDir);
  return found;
}

/**
 * Builds `entryPoints` ({ "main.node": "src/main.node.ts" }, paths from `packageDir`) into `outdir` (`name.js` and
 * `name.js.map`; `extension` ".mjs" for `name.mjs`). Answers the files written and the packages left to node_modules.
 */
export async function bundle({
  packageDir,
  entryPoints,
  outdir,
  selfContained = false,
  carryPackages = false,
  extension = ".js",
}) {
  // The packages the plugin below leaves out. What esbuild itself leaves, carrying packages, is a require in a try
  // block that its package expects to fail softly (pg's optional pg-native, ws's native helpers).
  const leftOut = new Set();
  const keepOut = {
    name: "booth-externals",
    setup(builder) {
      // Bare imports other than Booth's own packages (or, carrying packages, those of KEEP_OUT) stay imports:
      // node_modules answers them at run time.
      const leave = (path) =>
        carryPackages ? KEEP_OUT.includes(packageOf(path)) : !path.startsWith("@booth/") && !isBuiltin(path);
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path) || !leave(args.path)) return undefined;
        leftOut.add(packageOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: Object.entries(entryPoints).map(([out, source]) => ({ out, in: source })),
    outdir,
    outExtension: { ".js": extension },
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    // Carrying packages, what the entries load only on demand (PGlite's driver without DATABASE_URL) stays a chunk
    // of its own that a start without it never reads; the entries' shared code is one chunk too. Chunks sit beside the
    // entries: what a module finds beside itself (packages/db's migrations) is there from either.
    splitting: carryPackages,
    chunkNames: "[name]-[hash]",
    sourcemap: "linked",
    // The map names the sources relative to itself (../src/main.node.ts, ../../../packages/db/src/index.ts), so a
    // stack trace under `node --enable-source-maps` points at the TypeScript file in the repository.
    sourcesContent: true,
    write: false,
    metafile: true,
    logLevel: "warning",
    plugins: selfContained ? [] : [keepOut],
    define: { BOOTH_BUNDLED: "true" },
    banner: {
      // CommonJS code inside the bundle (a dependency carried in) calls require; the bundle is a module.
      js: "import { createRequire as __boothRequire } from 'node:module'; const require = __boothRequire(import.meta.url);",
    },
  });

  // Self-contained, esbuild fails on any import it cannot carry (what it leaves is a require in a try block, which
  // its package expects to fail softly: ws's optional native helpers). Otherwise, what it leaves must be installed.
  const external = externalPackages(result.metafile);
  if (!selfContained) {
    const installed = await installedWith(packageDir);
    const missing = [...external].filter((name) => leftOut.has(name) && !installed.has(name));
    if (missing.length)
      throw new Error(
        `the ${basename(packageDir)} bundle imports ${missing.join(", ")}: not among the production dependencies of ${basename(packageDir)} or of its @booth packages (package.json "dependencies")`,
      );
    const elsewhere = foundElsewhere(result.metafile, packageDir, outdir);
    if (elsewhere.length)
      throw new Error(`the ${basename(packageDir)} bundle would load other copies of: ${elsewhere.join("; ")}`);
  }

  for (const folder of new Set(result.outputFiles.map((file) => dirname(file.path))))
    await mkdir(folder, { recursive: true });
  const partial = `.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  await Promise.all(
    result.outputFiles.map(async (file) => {
      await writeFile(file.path + partial, file.contents);
      await rename(file.path + partial, file.path);
    }),
  );
  return { files: result.outputFiles.map((file) => file.path), external: [...external].sort() };
}
