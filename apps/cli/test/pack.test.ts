/**
 * The CLI as an npm package: `npm pack` builds it (prepack) into a tarball that installs globally, offline, in a
 * folder outside the repository, and runs there on plain Node with nothing of the repository on its module path.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLI_DIR } from "../scripts/build.mjs";

const run = promisify(execFile);
let dir: string;
let prefix: string;
let packed: { filename: string; files: { path: string }[] };

/** What the installed command sees: a PATH with this Node, a home, and nothing else (no NODE_PATH, no npm settings). */
const bare = () => ({
  PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
  HOME: dir,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "booth-cli-pack-"));
  prefix = join(dir, "global");
  // Its prepack script's line comes first on stdout, then npm's JSON.
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: CLI_DIR });
  [packed] = JSON.parse(stdout.slice(stdout.search(/^\[/m)));
  await run(
    "npm",
    ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", join(dir, packed.filename)],
    { cwd: dir, env: { ...bare(), npm_config_cache: join(dir, "npm-cache") } },
  );
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

it("packs the bundle alone, with no dependencies to install", async () => {
  expect(packed.filename).toBe(`booth-cli-${BOOTH_VERSION}.tgz`);
  expect(packed.files.map((f) => f.path).sort()).toEqual([
    "LICENSE",
    "README.md",
    "bin/booth.mjs",
    "dist/booth.mjs",
    "dist/booth.mjs.map",
    "package.json",
  ]);
  const manifest = JSON.parse(
    await readFile(join(prefix, "lib", "node_modules", "@booth", "cli", "package.json"), "utf8"),
  );
  expect(manifest).toMatchObject({ name: "@booth/cli", version: BOOTH_VERSION, bin: { booth: "./bin/booth.mjs" } });
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.peerDependencies).toBeUndefined();
  expect(manifest.optionalDependencies).toBeUndefined();
});

it("installed globally outside the repository, answers --version and --help", async () => {
  const booth = join(prefix, "bin", "booth");
  // As a shell runs it (its #! line finds node on the PATH), and as `node <file>`.
  const version = await run(booth, ["--version"], { cwd: dir, env: bare() });
  expect(version.stdout.trim()).toBe(BOOTH_VERSION);
  expect((await run(process.execPath, [booth, "--version"], { cwd: dir, env: bare() })).stdout.trim()).toBe(
    BOOTH_VERSION,
  );
  const help = await run(booth, ["--help"], { cwd: dir, env: bare() });
  expect(help.stdout).toMatch(/^Usage: booth \[options\] \[command\]/);
  for (const command of ["login", "vouchers", "seed", "bot", "completion"]) expect(help.stdout).toContain(command);
  expect(help.stderr).toBe("");
});
