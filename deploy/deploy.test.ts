/**
 * The deploy files against the tree (no image can be built where Booth is developed: no registry is reachable).
 * Each check runs on the real files, and on a copy broken on purpose, which it must refuse.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT as NEEDS_BUILT } from "../scripts/need-build.mjs";
import {
  type ComposeContext,
  checkCompose,
  checkDockerfile,
  dockerIgnore,
  envReads,
  parseCompose,
  ROOT,
  realTree,
  runtimeHas,
  sourcesOf,
  type Tree,
  workspaceScripts,
} from "./checks.ts";
import { copyPackages, packageClosure } from "./copy-packages.mjs";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const DOCKERFILES = ["deploy/edge.Dockerfile", "deploy/web.Dockerfile", "deploy/rooms.Dockerfile"];
const tree = realTree();
const scripts = workspaceScripts();

/**
 * The tree after `npm run build`: what the apps' production starts need of it (scripts/need-build.mjs, the list the
 * built edge's and web's tests start from), the browser's files, and the CLI's bundle. No test builds for this check:
 * the built tests prove the build makes these, and this proves the images ask for nothing else.
 */
const MADE = [
  ...Object.entries(NEEDS_BUILT).flatMap(([app, files]) => files.map((file) => `apps/${app}/${file}`)),
  "apps/edge/dist/migrations",
  "apps/web/build/client",
  "apps/cli/dist/booth.mjs",
];
const afterBuild: Tree = {
  exists: (path) =>
    MADE.some((made) => made === path || made.startsWith(`${path}/`) || path.startsWith(`${made}/`)) ||
    tree.exists(path),
  ignored: tree.ignored,
};

/** The real tree, with every path under `missing` gone. */
const without = (missing: string): Tree => ({
  exists: (path) => path !== missing && !path.startsWith(`${missing}/`) && tree.exists(path),
  ignored: tree.ignored,
});
/** The real tree, with `made` there as a build would make them. */
const withBuilt = (...made: string[]): Tree => ({
  exists: (path) => made.some((m) => path === m || path.startsWith(`${m}/`)) || tree.exists(path),
  ignored: tree.ignored,
});
const BUILT = ["apps/edge/dist", "apps/web/dist", "apps/web/build", "apps/cli/dist"];
const allScripts = (workspace: string) => [...scripts(workspace), "build"];

describe("the Dockerfiles", () => {
  for (const file of DOCKERFILES) {
    it(`${file}: copies from the build context only what is there and kept, and has the runtime's shape`, () => {
      const { report } = checkDockerfile(read(file), tree, scripts);
      expect(report.context).toEqual([]);
      expect(report.shape).toEqual([]);
    });

    it(`${file}: copies and runs only what its stages copy in or build`, () => {
      const { report } = checkDockerfile(read(file), afterBuild, scripts);
      expect(report.built).toEqual([]);
    });
  }

  it("refuses a copy of what the repository lacks or .dockerignore leaves out", () => {
    const edge = read("deploy/edge.Dockerfile");
    expect(checkDockerfile(edge, without("tsconfig.base.json"), allScripts).report.context).toEqual([
      expect.stringContaining("COPY tsconfig.base.json: not in the repository"),
    ]);
    const ignoring = edge.replace("COPY scripts/bundle.mjs scripts/", "COPY apps/web/build apps/web/build");
    expect(checkDockerfile(ignoring, withBuilt(...BUILT), allScripts).report.context).toEqual([
      expect.stringContaining("COPY apps/web/build: .dockerignore leaves it out"),
      expect.stringContaining("npm run build -w @booth/edge loads scripts/bundle.mjs, which its stage does not copy"),
    ]);
  });

  it("refuses a built file the build does not make, a command whose file is not in the image, a missing npm script", () => {
    const edge = read("deploy/edge.Dockerfile");
    // The build makes no dist: the copy from the build stage finds nothing.
    expect(checkDockerfile(edge, without("apps/edge/dist"), allScripts).report.built).toEqual([
      expect.stringContaining("apps/edge/dist does not exist (after npm run build)"),
      expect.stringContaining("CMD apps/edge/dist/main.node.js: apps/edge/dist/main.node.js does not exist"),
    ]);
    // Built, but not copied into the runtime stage.
    const uncopied = edge.replace("COPY --from=build /app/apps/edge/dist apps/edge/dist\n", "");
    expect(checkDockerfile(uncopied, withBuilt(...BUILT), allScripts).report.built).toEqual([
      expect.stringContaining(
        "CMD apps/edge/dist/main.node.js: nothing copies or makes /app/apps/edge/dist/main.node.js",
      ),
    ]);
    // A command of the worker's or the release step's that the image lacks.
    expect(runtimeHas(edge, withBuilt(...BUILT), "apps/edge/dist/main.worker.js", allScripts)).toEqual([]);
    expect(runtimeHas(edge, withBuilt(...BUILT), "apps/edge/scripts/missing.js", allScripts)).toHaveLength(1);
    expect(
      checkDockerfile(edge.replace("npm run build -w @booth/edge", "npm run bundle -w @booth/edge"), tree, allScripts)
        .report.built,
    ).toContainEqual(expect.stringContaining('@booth/edge has no script "bundle"'));
    // The rooms' build stage runs deploy/copy-packages.mjs, which it must copy in first.
    const rooms = read("deploy/rooms.Dockerfile").replace("COPY deploy/copy-packages.mjs deploy/\n", "");
    expect(checkDockerfile(rooms, tree, allScripts).report.built).toEqual([
      expect.stringContaining("node deploy/copy-packages.mjs: nothing copies or makes /app/deploy/copy-packages.mjs"),
    ]);
  });

  it("refuses a runtime stage of the wrong shape", () => {
    const edge = read("deploy/edge.Dockerfile");
    const shape = (text: string) => checkDockerfile(text, withBuilt(...BUILT), allScripts).report.shape;
    expect(shape(edge.replace("FROM node:24-bookworm-slim\n", "FROM node:20-bookworm-slim\n"))).toEqual([
      "FROM node:20-bookworm-slim: every stage starts from node:24-bookworm-slim",
    ]);
    expect(shape(edge.replace("USER node\n", ""))).toEqual(["the runtime stage runs as root (USER node)"]);
    expect(shape(edge.replace('ENTRYPOINT ["tini", "--"]\n', ""))).toEqual([
      'the runtime stage has no init process (ENTRYPOINT ["tini", "--"])',
    ]);
    expect(shape(edge.replace("ffmpeg tini ca-certificates", "ffmpeg ca-certificates"))).toEqual([
      "the runtime stage runs tini without installing it",
    ]);
    expect(shape(edge.replace(/^CMD .*$/m, 'CMD ["npm", "run", "start", "-w", "@booth/edge"]'))).toEqual([
      expect.stringContaining("the image runs node <script> itself"),
    ]);
    expect(shape(edge.replace(/^CMD .*$/m, "CMD node apps/edge/dist/main.node.js"))).toEqual([
      "the runtime stage's CMD is not a JSON array",
    ]);
    expect(shape(edge.replace(/^HEALTHCHECK[\s\S]*?\n(?=ENTRYPOINT)/m, ""))).toEqual([
      "the runtime stage has no HEALTHCHECK",
    ]);
    expect(shape(edge.replace("--omit=dev --workspace @booth/edge", "--workspace @booth/edge"))).toEqual([
      expect.stringContaining("installs development dependencies"),
    ]);
  });
});

describe(".dockerignore", () => {
  it("leaves out what is installed, built or kept on a developer's machine, and nothing the images copy", () => {
    const ignored = dockerIgnore(read(".dockerignore"));
    for (const path of [
      "node_modules/hono",
      "apps/web/node_modules/x",
      "apps/edge/dist/main.node.js",
      "apps/web/build/server/index.js",
      "apps/rooms-party/.wrangler/tmp",
      ".data/jwt-private.jwk.json",
      ".git/HEAD",
      "deploy/compose.env",
    ])
      expect(ignored(path), path).toBe(true);
    for (const path of ["apps/edge/src/main.node.ts", "packages/db/migrations", "deploy/copy-packages.mjs"])
      expect(ignored(path), path).toBe(false);
  });

  it("reads folders, ** and ! as Docker does", () => {
    const ignored = dockerIgnore("**/dist\n*.log\nbuild\n!build/keep");
    expect(ignored("a/b/dist/x.js")).toBe(true);
    expect(ignored("dist")).toBe(true);
    expect(ignored("x.log")).toBe(true);
    expect(ignored("a/x.log")).toBe(false);
    expect(ignored("build/out")).toBe(true);
    expect(ignored("build/keep")).toBe(false);
    expect(ignored("distant")).toBe(false);
  });
});

describe("what each app reads", () => {
  it("follows imports and workspace packages from the entry point", () => {
    const edge = envReads(sourcesOf("apps/edge/dist/main.node.js"));
    for (const name of ["DATABASE_URL", "PORT", "HOST", "S3_BUCKET", "BOOTH_PARTY_URL", "SHUTDOWN_TIMEOUT_MS"])
      expect(edge, name).toContain(name);
    // The release step imports @booth/db alone: it reads the database's address, none of the edge's settings.
    const migrate = envReads(sourcesOf("apps/edge/dist/main.migrate.js"));
    expect(migrate).toContain("DATABASE_URL");
    expect(migrate).not.toContain("S3_BUCKET");
    const web = envReads(sourcesOf("apps/web/dist/server.js"));
    for (const name of ["WEB_PORT", "WEB_HOST", "BOOTH_EDGE_URL", "BOOTH_PUBLIC_PARTY_URL", "SESSION_SECRET"])
      expect(web, name).toContain(name);
    expect(web).not.toContain("DATABASE_URL");
    const rooms = envReads(["apps/rooms-party/scripts/dev.mjs"]);
    for (const name of ["BOOTH_EDGE_URL", "BOOTH_SERVICE_SECRET", "PARTY_HOST", "PORT"])
      expect(rooms, name).toContain(name);
  });

  it("each image's ENV is read by what it runs", () => {
    for (const file of DOCKERFILES) {
      const { runtime } = checkDockerfile(read(file), tree, scripts);
      const cmd = runtime?.instructions.filter((i) => i.keyword === "CMD").at(-1);
      const script = (JSON.parse(cmd?.args ?? "[]") as string[]).find((w) => /\.(m?js)$/.test(w)) as string;
      const reads = envReads(sourcesOf(script));
      const env = runtime?.instructions
        .filter((i) => i.keyword === "ENV")
        .flatMap((i) => [...i.args.matchAll(/([A-Z_]+)=/g)].map((m) => m[1]));
      expect(env?.length, file).toBeGreaterThan(0);
      for (const name of env ?? []) expect(reads, `${file} sets ${name}`).toContain(name);
    }
  });
});

describe("deploy/compose.yaml", () => {
  const context = (change: Partial<ComposeContext> = {}): ComposeContext => ({
    compose: read("deploy/compose.yaml"),
    envExample: read("deploy/compose.env.example"),
    caddyfile: read("deploy/Caddyfile"),
    dockerfile: read,
    readsOf: (script) => envReads(sourcesOf(script)),
    version: (JSON.parse(read("package.json")) as { version: string }).version,
    ...change,
  });
  const compose = read("deploy/compose.yaml");

  it("parses, and holds together with the Dockerfiles, the env file, the Caddyfile and what the apps read", () => {
    const { services } = parseCompose(compose);
    expect(Object.keys(services).sort()).toEqual(
      ["caddy", "edge-1", "edge-2", "migrate", "postgres", "redis", "rooms", "s3", "web", "worker"].sort(),
    );
    expect(checkCompose(context())).toEqual([]);
  });

  it("runs every command of the edge's image from files the image holds", () => {
    const { services } = parseCompose(compose);
    const edge = read("deploy/edge.Dockerfile");
    const commands = Object.values(services)
      .filter((s) => s.build?.dockerfile === "deploy/edge.Dockerfile" && s.command)
      .map((s) => s.command?.at(-1) as string);
    expect(commands.sort()).toEqual(["apps/edge/dist/main.migrate.js", "apps/edge/dist/main.worker.js"]);
    for (const script of commands) {
      expect(runtimeHas(edge, afterBuild, script, scripts)).toEqual([]);
    }
  });

  it("refuses each kind of mistake", () => {
    const broken = (from: string | RegExp, to: string) => {
      const text = compose.replace(from, to);
      expect(text).not.toBe(compose);
      return checkCompose(context({ compose: text }));
    };
    expect(broken("image: redis:7.4.5-bookworm", "image: redis:latest")).toEqual([
      "redis: image redis:latest is not pinned to a version",
    ]);
    expect(broken("image: redis:7.4.5-bookworm", "image: redis")).toEqual([
      "redis: image redis is not pinned by a tag",
    ]);
    expect(broken("image: redis:7.4.5-bookworm", "image: redis:7")).toEqual([
      "redis: image redis:7 is not pinned to a version",
    ]);
    expect(broken("image: booth-web:0.1.0", "image: booth-web:0.0.9")).toEqual([
      "web: the image it builds is tagged 0.0.9, not Booth's version 0.1.0",
    ]);
    expect(broken(/(redis:\n {4}image: [^\n]+\n) {4}restart: unless-stopped\n/, "$1")).toEqual([
      "redis: restart is not unless-stopped",
    ]);
    expect(broken(/(redis-cli", "ping"\])/, "$1\n      disable: true")).toEqual([
      "redis: no health check",
      "edge-1: waits for redis to be healthy, which has no health check",
      "edge-2: waits for redis to be healthy, which has no health check",
      "worker: waits for redis to be healthy, which has no health check",
    ]);
    expect(broken('    restart: "no"\n', "    restart: unless-stopped\n")).toEqual([
      'migrate: a one-shot service restarts (restart: "no")',
    ]);
    expect(
      broken(
        "    depends_on:\n      caddy: { condition: service_healthy }\n      rooms: { condition: service_healthy }",
        "    depends_on: [caddy, rooms]",
      ),
    ).toEqual(["web: depends_on without conditions"]);
    expect(
      broken("      rooms: { condition: service_healthy }", "      rooms: { condition: service_started }"),
    ).toEqual(["web: depends on rooms with condition service_started"]);
    expect(broken("  migrate: { condition: service_completed_successfully }\n", "")).toContainEqual(
      "edge-1: starts without waiting for the release step (migrate)",
    );
    expect(broken('    expose: ["3000"]', '    expose: ["3000"]\n    ports: ["3000:3000"]')).toEqual([
      "web: publishes ports (only Caddy does)",
    ]);
    // A variable the app does not read: one of the edge's on the web, and one nobody reads.
    expect(
      broken(
        "      BOOTH_PARTY_URL: http://rooms:1999\n      BOOTH_PUBLIC_PARTY_URL",
        '      MIGRATE_ON_START: "false"\n      BOOTH_PARTY_URL: http://rooms:1999\n      BOOTH_PUBLIC_PARTY_URL',
      ),
    ).toEqual(["web: sets MIGRATE_ON_START, which apps/web/dist/server.js never reads"]);
    expect(broken('  RUN_JOBS: "false"', '  RUN_JOBS: "false"\n  S3_PATH_STYLE: "true"')).toEqual([
      "edge-1: sets S3_PATH_STYLE, which apps/edge/dist/main.node.js never reads",
      "edge-2: sets S3_PATH_STYLE, which apps/edge/dist/main.node.js never reads",
      "worker: sets S3_PATH_STYLE, which apps/edge/dist/main.worker.js never reads",
    ]);
    // The release step gets only what it reads.
    expect(
      broken(
        "    environment:\n      DATABASE_URL: postgres",
        "    environment:\n      <<: *edge-env\n      DATABASE_URL: postgres",
      ),
    ).toContainEqual("migrate: sets S3_BUCKET, which apps/edge/dist/main.migrate.js never reads");
    // Internal addresses.
    expect(
      broken(
        "BOOTH_PARTY_URL: http://rooms:1999\n  BOOTH_PUBLIC_EDGE_URL",
        "BOOTH_PARTY_URL: http://rooms:2999\n  BOOTH_PUBLIC_EDGE_URL",
      ),
    ).toEqual([
      "edge-1: http://rooms:2999: rooms listens on no port 2999",
      "edge-2: http://rooms:2999: rooms listens on no port 2999",
      "worker: http://rooms:2999: rooms listens on no port 2999",
    ]);
    expect(broken("@postgres:5432/booth\n  REDIS_URL", "@postgres:5433/booth\n  REDIS_URL")).toContainEqual(
      expect.stringContaining("postgres listens on no port 5433"),
    );
    expect(broken("BOOTH_EDGE_URL: http://caddy:8780", "BOOTH_EDGE_URL: http://edge:8787")).toEqual([
      "rooms: http://edge:8787 names edge, which is no service",
    ]);
    // The env file.
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's ${NAME}, not a template
      broken("ACME_EMAIL: ${ACME_EMAIL:?set ACME_EMAIL in deploy/compose.env}", "ACME_EMAIL: ${ACME_MAIL}"),
    ).toEqual([
      "compose.env.example does not name ACME_MAIL, which compose.yaml takes",
      "compose.env.example sets ACME_EMAIL, which compose.yaml never takes",
    ]);
    expect(broken("      ACME_EMAIL:", "      ACME_MAIL: x\n      ACME_EMAIL:")).toEqual([
      "caddy: sets ACME_MAIL, which the Caddyfile never uses",
    ]);
  });

  it("refuses a Caddyfile whose upstreams or variables Compose does not have", () => {
    const caddy = read("deploy/Caddyfile");
    const check = (from: string, to: string) => {
      const text = caddy.replace(from, to);
      expect(text).not.toBe(caddy);
      return checkCompose(context({ caddyfile: text }));
    };
    expect(check("reverse_proxy web:3000", "reverse_proxy web:8080")).toEqual([
      "Caddyfile: upstream web:8080: web listens on no port 8080",
    ]);
    expect(check("reverse_proxy rooms:1999", "reverse_proxy party:1999")).toEqual([
      "Caddyfile: upstream party:1999 is no service:port of compose.yaml",
    ]);
    expect(check("email {$ACME_EMAIL}", "email {$ADMIN_EMAIL}")).toEqual([
      "caddy: sets ACME_EMAIL, which the Caddyfile never uses",
      "Caddyfile: {$ADMIN_EMAIL} is not set for the caddy service",
    ]);
  });
});

describe("deploy/copy-packages.mjs (the rooms' image takes its packages with it)", () => {
  it("copies a workspace's dependencies with what they load, which then load from the copy alone", async () => {
    const to = await mkdtemp(join(tmpdir(), "booth-copy-packages-"));
    try {
      const copied = copyPackages({ root: ROOT, to, workspace: join(ROOT, "packages/sdk") });
      expect(copied).toEqual(expect.arrayContaining(["node_modules/jose", "node_modules/ws", "node_modules/zod"]));
      // Nothing the sdk does not load (the edge's packages, wrangler).
      expect(copied.some((path) => /hono|wrangler|ioredis/.test(path))).toBe(false);
      const sdk = JSON.parse(read("packages/sdk/package.json")) as { dependencies: Record<string, string> };
      await mkdir(join(to, "packages/sdk"), { recursive: true });
      const probe = join(to, "packages/sdk/probe.mjs");
      await writeFile(
        probe,
        Object.keys(sdk.dependencies)
          .map((name) => `await import(${JSON.stringify(name)});\n`)
          .join(""),
      );
      const run = spawnSync(process.execPath, [probe], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      // The same probe from a copy lacking one of them fails: the check above can fail.
      await rm(join(to, "node_modules/ws"), { recursive: true });
      expect(spawnSync(process.execPath, [probe], { encoding: "utf8" }).stderr).toContain("'ws'");
    } finally {
      await rm(to, { recursive: true, force: true });
    }
  });

  it("names a dependency that is not installed", () => {
    expect(() => packageClosure(join(ROOT, "packages/sdk"), ["no-such-package-of-booth"])).toThrow(
      /no-such-package-of-booth is not installed/,
    );
  });
});
