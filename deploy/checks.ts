/**
 * Checks of the deploy files against the tree, for deploy/deploy.test.ts: no image can be built where Booth is
 * developed (no registry is reachable), so what a build would find is checked here instead. Each check returns its
 * problems as lines; none is a pass.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { parse } from "yaml";

export const ROOT = join(import.meta.dirname, "..");

/** What a check may ask of the tree: a path (relative to the root) exists; .dockerignore leaves it out. */
export interface Tree {
  exists: (path: string) => boolean;
  ignored: (path: string) => boolean;
}

/** The real tree at `root`, with its .dockerignore. */
export function realTree(root = ROOT): Tree {
  const ignore = existsSync(join(root, ".dockerignore")) ? readFileSync(join(root, ".dockerignore"), "utf8") : "";
  return { exists: (path) => existsSync(join(root, path)), ignored: dockerIgnore(ignore) };
}

/**
 * Docker's .dockerignore rules as this repository writes them: `*` within a name, `**` across folders, a pattern that
 * names a folder leaves out everything in it, `!` takes a path back.
 */
export function dockerIgnore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const keep = line.startsWith("!");
      const pattern = posix.normalize((keep ? line.slice(1) : line).replace(/^\/+/, ""));
      const source = pattern
        .split("/")
        .map((part) => (part === "**" ? "(?:.*)" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")))
        .join("/")
        .replace(/\(\?:\.\*\)\//g, "(?:.*/)?");
      return { keep, regex: new RegExp(`^${source}$`) };
    });
  return (path) => {
    const parts = posix.normalize(path).split("/");
    let out = false;
    for (const rule of rules) {
      // A rule matches the path or a folder it is in.
      for (let n = 1; n <= parts.length; n++)
        if (rule.regex.test(parts.slice(0, n).join("/"))) {
          out = !rule.keep;
          break;
        }
    }
    return out;
  };
}

// --- Dockerfiles -------------------------------------------------------------------------------------------------

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}
export interface Stage {
  name: string | null;
  base: string;
  instructions: Instruction[];
}

/** A Dockerfile's stages, their instructions with continuation lines joined and comments dropped. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i] ?? "";
    if (!line.trim() || line.trim().startsWith("#")) continue;
    while (line.trimEnd().endsWith("\\") && i + 1 < lines.length) {
      i++;
      const next = lines[i] ?? "";
      if (next.trim().startsWith("#")) continue;
      line = `${line.trimEnd().slice(0, -1)} ${next.trim()}`;
    }
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const keyword = (match[1] ?? "").toUpperCase();
    const args = (match[2] ?? "").trim();
    if (keyword === "FROM") {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ base: from?.[1] ?? args, name: from?.[2] ?? null, instructions: [] });
      continue;
    }
    stages.at(-1)?.instructions.push({ keyword, args, line: start + 1 });
  }
  return stages;
}

/** An instruction's arguments: its JSON array (exec form), else its words. */
export function words(args: string): string[] {
  if (args.startsWith("[")) return JSON.parse(args) as string[];
  return args.split(/\s+/).filter(Boolean);
}

/** A COPY's flags, sources and destination. */
function copyOf(args: string) {
  const parts = words(args);
  const flags = Object.fromEntries(
    parts.filter((p) => p.startsWith("--")).map((p) => p.slice(2).split("=") as [string, string]),
  );
  const paths = parts.filter((p) => !p.startsWith("--"));
  return { from: flags.from as string | undefined, sources: paths.slice(0, -1), dest: paths.at(-1) ?? "." };
}

/** Where a stage's files come from, each a path in the image: the build context (the repository) or a command. */
interface Layer {
  /** The path in the image. */
  at: string;
  /** The repository path it holds (a COPY from the context, or from a stage whose files map to the repository). */
  repo: string | null;
  /** Copied from another stage (which the COPY's own check found holding it). */
  fromStage: boolean;
}

const APP = "/app";
/** A path in the image under /app as a repository path (the build context is the root, the workdir /app), or null. */
const repoPathOf = (at: string) => (at === APP ? "." : at.startsWith(`${APP}/`) ? at.slice(APP.length + 1) : null);

/** The script a `node [options] <script>` command runs, if the command is one. */
export function nodeScript(command: string[]): string | null {
  if (command[0] !== "node") return null;
  for (let i = 1; i < command.length; i++) {
    const word = command[i] ?? "";
    if (word === "-e" || word === "--eval") return null;
    if (!word.startsWith("-")) return word;
  }
  return null;
}

export interface DockerfileReport {
  /** Files the build context must hold (they are in the repository, .dockerignore keeps them). */
  context: string[];
  /** Files a build stage makes (`npm run build`) that a later stage copies or a command runs. */
  built: string[];
  /** Everything else: the image's shape (base, user, init, command, health check, production dependencies). */
  shape: string[];
}

/**
 * Checks one Dockerfile against the tree: every COPY from the build context names a path that exists and that
 * .dockerignore keeps; every COPY from a stage names what that stage copied in or made (and, for a repository path,
 * what exists in the tree once built); every `node <script>` the image runs is in the stage that runs it; every `npm
 * run <script> -w <workspace>` names a script of that workspace. And the runtime stage's shape.
 */
export function checkDockerfile(text: string, tree: Tree, scriptsOf: (workspace: string) => string[]) {
  const report: DockerfileReport = { context: [], built: [], shape: [] };
  const stages = parseDockerfile(text);
  const layers = new Map<Stage, Layer[]>();
  const made = new Map<Stage, string[]>();
  const named = (name: string) => stages.find((s) => s.name === name);
  /** The stage and those it starts from. */
  const chain = (stage: Stage): Stage[] => {
    const parent = named(stage.base);
    return parent ? [stage, ...chain(parent)] : [stage];
  };
  const absolute = (path: string, workdir: string) =>
    posix.normalize(path.startsWith("/") ? path : `${workdir}/${path}`);

  /** Whether `at` is in `stage`: copied in (returns the repository path, if any) or made by one of its commands. */
  function find(stage: Stage, at: string): { repo: string | null; fromStage: boolean } | "made" | null {
    for (const s of chain(stage)) {
      for (const layer of [...(layers.get(s) ?? [])].reverse()) {
        if (at === layer.at || at.startsWith(`${layer.at}/`)) {
          const repo = layer.repo === null ? null : posix.normalize(posix.join(layer.repo, relative(layer.at, at)));
          return { repo, fromStage: layer.fromStage };
        }
      }
    }
    for (const s of chain(stage))
      if ((made.get(s) ?? []).some((path) => at === path || at.startsWith(`${path}/`))) return "made";
    // A file under /app that a command of the chain may have made (npm run build): the tree decides.
    return null;
  }

  /** Checks that `at`, needed in `stage`, is there: where it comes from, and that the tree has it. */
  function need(stage: Stage, at: string, what: string) {
    const found = find(stage, at);
    const repo = found && found !== "made" ? found.repo : repoPathOf(at);
    if (found === "made") return;
    if (found?.fromStage) {
      if (repo !== null && !tree.exists(repo))
        report.built.push(`${what}: ${repo} does not exist (after npm run build)`);
      return;
    }
    if (found && repo !== null && !tree.ignored(repo)) {
      if (!tree.exists(repo)) report.context.push(`${what}: ${repo} is not in the repository`);
      return;
    }
    // Not from the context as it is: a build (`npm run ...`) of this chain must make it, and the built tree has it.
    const runs = chain(stage).some((s) =>
      s.instructions.some((i) => i.keyword === "RUN" && /\bnpm run\b/.test(i.args)),
    );
    if (repo === null || !runs) report.built.push(`${what}: nothing copies or makes ${at} in its stage`);
    else if (!tree.exists(repo)) report.built.push(`${what}: ${repo} does not exist (after npm run build)`);
  }

  for (const stage of stages) {
    let workdir = "/";
    layers.set(stage, []);
    made.set(stage, []);
    const parent = named(stage.base);
    if (parent) workdir = [...parent.instructions].reverse().find((i) => i.keyword === "WORKDIR")?.args ?? "/";
    else if (stage.base !== "node:24-bookworm-slim")
      report.shape.push(`FROM ${stage.base}: every stage starts from node:24-bookworm-slim`);
    for (const instruction of stage.instructions) {
      const where = `line ${instruction.line}`;
      if (instruction.keyword === "WORKDIR") workdir = absolute(instruction.args, workdir);
      if (instruction.keyword === "COPY" || instruction.keyword === "ADD") {
        const copy = copyOf(instruction.args);
        const dest = absolute(copy.dest, workdir);
        const many = copy.sources.length > 1 || copy.dest.endsWith("/");
        for (const source of copy.sources) {
          const at = many ? posix.join(dest, posix.basename(source)) : dest;
          if (copy.from === undefined) {
            const repo = posix.normalize(source);
            if (!tree.exists(repo)) report.context.push(`${where}: COPY ${repo}: not in the repository`);
            else if (tree.ignored(repo)) report.context.push(`${where}: COPY ${repo}: .dockerignore leaves it out`);
            layers.get(stage)?.push({ at, repo, fromStage: false });
          } else {
            const from = named(copy.from);
            if (!from) {
              report.shape.push(`${where}: COPY --from=${copy.from}: no such stage`);
              continue;
            }
            const path = absolute(source, "/");
            need(from, path.replace(/\/$/, "") || "/", `${where}: COPY --from=${copy.from} ${source}`);
            const found = find(from, path.replace(/\/$/, ""));
            const repo = found && found !== "made" ? found.repo : repoPathOf(path.replace(/\/$/, ""));
            layers.get(stage)?.push({
              at: copy.dest.endsWith("/") ? dest : at,
              repo: found === "made" ? null : repo,
              fromStage: true,
            });
          }
        }
      }
      if (instruction.keyword === "RUN") {
        for (const command of instruction.args.split(/&&|;/).map((c) => words(c.trim()))) {
          const script = nodeScript(command);
          if (script) need(stage, absolute(script, workdir), `${where}: node ${script}`);
          // What a command writes outside the workdir (`... /out ...`) is its own.
          for (const word of command) if (word.startsWith("/") && !word.startsWith(APP)) made.get(stage)?.push(word);
          const run = command[0] === "npm" && command[1] === "run" ? command[2] : undefined;
          const flag = command.findIndex((word) => word === "-w" || word === "--workspace");
          const workspace = flag > 0 ? command[flag + 1] : undefined;
          if (run && workspace) {
            if (!scriptsOf(workspace).includes(run))
              report.built.push(`${where}: npm run ${run} -w ${workspace}: ${workspace} has no script "${run}"`);
            // The script's own files (and what they import by relative path) must be copied into this stage: a
            // build script that imports a shared helper from the root's scripts/ fails in an image without it.
            for (const file of scriptFiles(workspace, run)) {
              const found = find(stage, `${APP}/${file}`);
              if (!found || found === "made")
                report.context.push(
                  `${where}: npm run ${run} -w ${workspace} loads ${file}, which its stage does not copy`,
                );
            }
          }
        }
      }
    }
  }

  // The runtime stage: the last one.
  const last = stages.at(-1);
  if (!last) return { report, stages, runtime: undefined };
  const instructions = (keyword: string) => last.instructions.filter((i) => i.keyword === keyword);
  const user = instructions("USER").at(-1)?.args;
  if (!user || user === "root" || user === "0") report.shape.push("the runtime stage runs as root (USER node)");
  const entrypoint = instructions("ENTRYPOINT").at(-1);
  if (!entrypoint || JSON.stringify(words(entrypoint.args)) !== JSON.stringify(["tini", "--"]))
    report.shape.push('the runtime stage has no init process (ENTRYPOINT ["tini", "--"])');
  else if (!instructions("RUN").some((i) => /apt-get install[^&]*\btini\b/.test(i.args)))
    report.shape.push("the runtime stage runs tini without installing it");
  const cmd = instructions("CMD").at(-1);
  if (!cmd?.args.startsWith("[")) report.shape.push("the runtime stage's CMD is not a JSON array");
  else {
    const command = words(cmd.args);
    const script = nodeScript(command);
    if (!script) report.shape.push(`CMD ${cmd.args}: the image runs node <script> itself (not npm, not tsx)`);
    else need(last, absolute(script, instructions("WORKDIR").at(-1)?.args ?? "/"), `CMD ${script}`);
  }
  const health = instructions("HEALTHCHECK").at(-1);
  if (!health) report.shape.push("the runtime stage has no HEALTHCHECK");
  else if (!/CMD \["node", "-e", "fetch\(/.test(health.args))
    report.shape.push("the HEALTHCHECK asks with node's fetch (slim images have no curl)");
  for (const run of instructions("RUN"))
    if (/\bnpm ci\b/.test(run.args) && !/--omit=dev\b/.test(run.args))
      report.shape.push(`line ${run.line}: the runtime stage installs development dependencies (npm ci --omit=dev)`);
  return { report, stages, runtime: last };
}

/** Whether `at` (a path in the image) is in `dockerfile`'s runtime stage, checked as the image's own CMD is. */
export function runtimeHas(text: string, tree: Tree, script: string, scriptsOf: (ws: string) => string[]) {
  const withCmd = `${text}\nCMD ${JSON.stringify(["node", script])}\n`;
  const { report } = checkDockerfile(withCmd, tree, scriptsOf);
  return [...report.context, ...report.built].filter((line) => line.startsWith(`CMD ${script}`));
}

/** The scripts of a workspace (by package name) or of the root ("."). */
export function workspaceScripts(root = ROOT): (workspace: string) => string[] {
  const byName = new Map<string, string[]>();
  for (const dir of ["apps", "packages"])
    for (const name of readdirSync(join(root, dir))) {
      const file = join(root, dir, name, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name: string; scripts?: Record<string, string> };
      byName.set(manifest.name, Object.keys(manifest.scripts ?? {}));
    }
  return (workspace) => byName.get(workspace) ?? [];
}

/**
 * The repository files `npm run <run>` of a workspace runs with node, and every file they import by a relative path
 * (followed through .mjs and .js files). A script that is not `node <file>` names none.
 */
export function scriptFiles(workspace: string, run: string, root = ROOT): string[] {
  let dir: string | undefined;
  let command: string | undefined;
  for (const parent of ["apps", "packages"])
    for (const name of readdirSync(join(root, parent))) {
      const file = join(root, parent, name, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name: string; scripts?: Record<string, string> };
      if (manifest.name === workspace) {
        dir = `${parent}/${name}`;
        command = manifest.scripts?.[run];
      }
    }
  if (!dir || !command) return [];
  const files = new Set<string>();
  const visit = (path: string) => {
    if (files.has(path) || !existsSync(join(root, path))) return;
    files.add(path);
    const text = readFileSync(join(root, path), "utf8");
    for (const pattern of IMPORT)
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1] ?? "";
        if (specifier.startsWith(".")) visit(posix.normalize(posix.join(posix.dirname(path), specifier)));
      }
  };
  for (const match of command.matchAll(/\bnode\s+(?:--\S+\s+)*(\S+\.m?js)\b/g))
    visit(posix.normalize(posix.join(dir, match[1] ?? "")));
  return [...files];
}

// --- What each app reads -----------------------------------------------------------------------------------------

const IMPORT = [
  /(?:import|export)\s[^'"`;]*?\sfrom\s*["']([^"']+)["']/g,
  /import\s*\(\s*["']([^"']+)["']\s*\)/g,
  /import\s+["']([^"']+)["']/g,
];
/**
 * `env.NAME`, `process.env.NAME`, `environment.NAME`, `env["NAME"]`; a setting of an app's schema (`NAME: setting...`
 * and the shared makers, @booth/sdk/settings), and an old name it still reads (`OLD_NAME: "NEW_NAME"`, its renamed
 * settings).
 */
const READ = [
  /\b(?:env|environment)\.([A-Z][A-Z0-9_]*)\b/g,
  /\benv\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\]/g,
  /\b([A-Z][A-Z0-9_]*):\s*(?:setting\b|edgeUrlSetting\(|logLevelSetting\(|playerScript\(|hosts\()/g,
  /^\s*([A-Z][A-Z0-9_]*):\s*"[A-Z][A-Z0-9_]*",?\s*$/gm,
];
const SOURCE = [".ts", ".tsx", ".mts", ".js", ".mjs"];

/** The file a workspace package's specifier (`@booth/sdk/live`) names, from its package.json exports. */
function workspaceFile(specifier: string, root: string): string | null {
  const match = /^(@booth\/[^/]+)(\/.*)?$/.exec(specifier);
  if (!match) return null;
  for (const dir of ["apps", "packages"])
    for (const name of readdirSync(join(root, dir))) {
      const file = join(root, dir, name, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name: string; exports?: Record<string, string> };
      if (manifest.name !== match[1]) continue;
      const target = manifest.exports?.[`.${match[2] ?? ""}`];
      return target ? join(root, dir, name, target) : null;
    }
  return null;
}

function resolveImport(specifier: string, from: string, root: string): string | null {
  if (specifier.startsWith("@booth/")) return workspaceFile(specifier, root);
  if (!specifier.startsWith(".")) return null;
  const base = join(dirname(from), specifier);
  for (const candidate of [base, ...SOURCE.map((ext) => base + ext), ...SOURCE.map((ext) => join(base, `index${ext}`))])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/**
 * The environment variables the code from `entries` reads (files or folders, relative to the root): each file and
 * every file of the repository it imports, following relative imports and the workspace packages' exports. Test files
 * are not followed.
 */
export function envReads(entries: string[], root = ROOT): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const queue: string[] = [];
  const add = (path: string) => {
    if (!existsSync(path)) throw new Error(`${relative(root, path)} does not exist`);
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path, { recursive: true, encoding: "utf8" }))
        if (SOURCE.some((ext) => entry.endsWith(ext)) && !/\.test\.|\.d\.m?ts$/.test(entry))
          queue.push(join(path, entry));
    } else queue.push(path);
  };
  for (const entry of entries) add(join(root, entry));
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file) || /\.test\.[a-z]+$/.test(file)) continue;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    for (const pattern of READ) for (const m of code.matchAll(pattern)) names.add(m[1] as string);
    for (const pattern of IMPORT)
      for (const m of code.matchAll(pattern)) {
        const target = resolveImport(m[1] as string, file, root);
        if (target) queue.push(target);
      }
  }
  return names;
}

/**
 * The sources a built file is compiled from: apps/<app>/dist/<name>.js is apps/<app>/src/<name>.ts or
 * apps/<app>/<name>.ts (the web's server.ts, with the Remix app its build loads: apps/web/app). Any other file is its
 * own source.
 */
export function sourcesOf(script: string, root = ROOT): string[] {
  const built = /^apps\/([^/]+)\/dist\/(.+)\.m?js$/.exec(script);
  if (!built) return [script];
  const [, app, name] = built;
  for (const candidate of [`apps/${app}/src/${name}.ts`, `apps/${app}/${name}.ts`])
    if (existsSync(join(root, candidate)))
      return candidate === "apps/web/server.ts" ? [candidate, "apps/web/app"] : [candidate];
  throw new Error(`no source for ${script} (apps/${app}/src/${name}.ts or apps/${app}/${name}.ts)`);
}

// --- Compose and Caddy -------------------------------------------------------------------------------------------

export interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  restart?: string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  expose?: string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  volumes?: string[];
}

export const parseCompose = (text: string) =>
  parse(text, { merge: true }) as { services: Record<string, Service>; volumes?: Record<string, unknown> };

/** The `${NAME}` (and `${NAME:-...}`, `${NAME:?...}`) a Compose file takes from its env file. */
export const interpolated = (text: string) =>
  new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)(?::?[-?][^}]*)?\}/g)].map((m) => m[1] as string));

/** The names an env file sets (commented lines and blanks aside). */
export const envFileNames = (text: string) =>
  new Set([...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] as string));

export interface ComposeContext {
  compose: string;
  envExample: string;
  caddyfile: string;
  /** A service's Dockerfile, by its path relative to the root. */
  dockerfile: (path: string) => string;
  /** The environment variables a service's app reads, from the script it runs. */
  readsOf: (script: string) => Set<string>;
  /** The version images are tagged with (the root package.json's). */
  version: string;
}

/** The script a built service runs: its command, else its Dockerfile's CMD. */
function scriptOf(service: Service, dockerfile: string): string | null {
  if (service.command) return nodeScript(service.command);
  const cmd = parseDockerfile(dockerfile)
    .at(-1)
    ?.instructions.filter((i) => i.keyword === "CMD")
    .at(-1);
  return cmd ? nodeScript(words(cmd.args)) : null;
}

/** Ports a service listens on: its `expose`, and its Dockerfile's EXPOSE. */
function portsOf(service: Service, dockerfile: string | null): Set<string> {
  const ports = new Set((service.expose ?? []).map(String));
  if (dockerfile)
    for (const i of parseDockerfile(dockerfile).at(-1)?.instructions ?? [])
      if (i.keyword === "EXPOSE") for (const port of words(i.args)) ports.add(port.replace(/\/.*/, ""));
  return ports;
}

/**
 * Checks deploy/compose.yaml: images pinned (no `latest`, no untagged; built ones tagged with Booth's version),
 * restart policies, health checks, depends_on conditions, one release step before every edge and worker, only Caddy
 * publishing ports; every variable set for a built service read by its app, every one set for Caddy used by the
 * Caddyfile, every variable taken from the env file named in compose.env.example (and back); every internal address
 * (in the environment and the Caddyfile's upstreams) a service and a port it listens on.
 */
export function checkCompose(context: ComposeContext): string[] {
  const problems: string[] = [];
  const { services } = parseCompose(context.compose);
  const dockerfileOf = (service: Service) => (service.build ? context.dockerfile(service.build.dockerfile) : null);
  const dependsOn = (service: Service) =>
    Array.isArray(service.depends_on) ? {} : (service.depends_on ?? ({} as Record<string, { condition?: string }>));
  // One-shot services: declared so (restart: "no"), or another waits for them to complete.
  const oneShots = new Set([
    ...Object.entries(services)
      .filter(([, s]) => s.restart === "no")
      .map(([name]) => name),
    ...Object.values(services).flatMap((s) =>
      Object.entries(dependsOn(s))
        .filter(([, d]) => d.condition === "service_completed_successfully")
        .map(([name]) => name),
    ),
  ]);
  const healthChecked = (service: Service) => {
    if (service.healthcheck?.disable) return false;
    if (service.healthcheck?.test) return true;
    const dockerfile = dockerfileOf(service);
    return Boolean(
      dockerfile &&
        parseDockerfile(dockerfile)
          .at(-1)
          ?.instructions.some((i) => i.keyword === "HEALTHCHECK"),
    );
  };

  for (const [name, service] of Object.entries(services)) {
    const image = service.image ?? "";
    const tag = /^[^@]+:([^/:@]+)$/.exec(image)?.[1];
    if (!tag) problems.push(`${name}: image ${image || "(none)"} is not pinned by a tag`);
    else if (tag === "latest" || /^\d+$/.test(tag)) problems.push(`${name}: image ${image} is not pinned to a version`);
    if (service.build && tag !== context.version)
      problems.push(`${name}: the image it builds is tagged ${tag}, not Booth's version ${context.version}`);

    const oneShot = oneShots.has(name);
    if (oneShot) {
      if (service.restart !== "no") problems.push(`${name}: a one-shot service restarts (restart: "no")`);
    } else if (service.restart !== "unless-stopped") problems.push(`${name}: restart is not unless-stopped`);
    if (!oneShot && !healthChecked(service)) problems.push(`${name}: no health check`);

    if (Array.isArray(service.depends_on)) problems.push(`${name}: depends_on without conditions`);
    for (const [dep, { condition }] of Object.entries(dependsOn(service))) {
      const target = services[dep];
      if (!target) problems.push(`${name}: depends on ${dep}, which is no service`);
      else if (condition === "service_healthy" && !healthChecked(target))
        problems.push(`${name}: waits for ${dep} to be healthy, which has no health check`);
      else if (condition !== "service_healthy" && condition !== "service_completed_successfully")
        problems.push(`${name}: depends on ${dep} with condition ${condition ?? "(none)"}`);
    }
    if (service.ports?.length && name !== "caddy") problems.push(`${name}: publishes ports (only Caddy does)`);

    const dockerfile = dockerfileOf(service);
    const environment = Object.keys(service.environment ?? {});
    if (dockerfile) {
      const script = scriptOf(service, dockerfile);
      if (!script) problems.push(`${name}: runs no node script`);
      else {
        const reads = context.readsOf(script);
        for (const variable of environment)
          if (!reads.has(variable)) problems.push(`${name}: sets ${variable}, which ${script} never reads`);
      }
    }
    if (name === "caddy")
      for (const variable of environment)
        if (!context.caddyfile.includes(`{$${variable}}`))
          problems.push(`caddy: sets ${variable}, which the Caddyfile never uses`);

    // Addresses inside the Compose network: a service, and a port it listens on.
    for (const value of Object.values(service.environment ?? {}))
      for (const m of String(value)
        .replace(/\$\{[^}]*\}/g, "x")
        .matchAll(/\b[a-z]+:\/\/(?:[^@/\s]*@)?([a-z0-9-]+):(\d+)/g)) {
        const [, host, port] = m as unknown as [string, string, string];
        const target = services[host];
        if (!target) problems.push(`${name}: ${m[0]} names ${host}, which is no service`);
        else if (!portsOf(target, dockerfileOf(target)).has(port))
          problems.push(`${name}: ${m[0]}: ${host} listens on no port ${port}`);
      }
  }

  // The release step runs before every other service of the edge's image.
  const edgeImage = Object.entries(services).filter(([, s]) => s.build?.dockerfile === "deploy/edge.Dockerfile");
  const releases = edgeImage.filter(([name]) => oneShots.has(name)).map(([name]) => name);
  if (releases.length !== 1) problems.push(`the edge's image has ${releases.length} release steps, not one`);
  for (const [name, service] of edgeImage)
    if (
      !releases.includes(name) &&
      !releases.every((r) => dependsOn(service)[r]?.condition === "service_completed_successfully")
    )
      problems.push(`${name}: starts without waiting for the release step (${releases.join(", ")})`);

  // The env file: every variable taken from it is in the example, and the example sets nothing unused.
  const used = interpolated(context.compose);
  const example = envFileNames(context.envExample);
  for (const variable of used)
    if (!example.has(variable))
      problems.push(`compose.env.example does not name ${variable}, which compose.yaml takes`);
  for (const variable of example)
    if (!used.has(variable)) problems.push(`compose.env.example sets ${variable}, which compose.yaml never takes`);

  // Caddy's upstreams.
  for (const m of context.caddyfile.matchAll(/^\s*reverse_proxy\s+([^{\n]+)/gm))
    for (const upstream of (m[1] ?? "").trim().split(/\s+/)) {
      const [host, port] = upstream.replace(/^https?:\/\//, "").split(":");
      const target = host ? services[host] : undefined;
      if (!target || !port) problems.push(`Caddyfile: upstream ${upstream} is no service:port of compose.yaml`);
      else if (!portsOf(target, dockerfileOf(target)).has(port))
        problems.push(`Caddyfile: upstream ${upstream}: ${host} listens on no port ${port}`);
    }
  for (const m of context.caddyfile.matchAll(/\{\$([A-Z][A-Z0-9_]*)\}/g))
    if (!((m[1] as string) in (services.caddy?.environment ?? {})))
      problems.push(`Caddyfile: {$${m[1]}} is not set for the caddy service`);
  return problems;
}
