import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "./free-port.ts";

// The entries only build dependencies from the environment and serve the app; these tests start each one as a user
// would, on the embedded defaults in a fresh data folder, and call it over HTTP.
const edgeDir = new URL("..", import.meta.url).pathname;

let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  child?.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function startEntry(command: string, args: string[]) {
  const port = await freePort();
  dataDir = await mkdtemp(join(tmpdir(), "booth-entry-"));
  let output = "";
  child = spawn(command, args, {
    cwd: edgeDir,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      INIT_CWD: "",
      SEED_DEMO: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await fetch(`http://127.0.0.1:${port}/api/user-service/auth/pub-key`).catch(() => null);
    if (res?.ok) return { port, output: () => output, key: await res.json() };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the entry did not serve:\n${output}`);
}

describe("entries", () => {
  it("the Node entry serves the API and the docs, and prints a working first admin", async () => {
    const { port, output, key } = await startEntry(process.execPath, ["--import", "tsx", "src/main.node.ts"]);
    expect(key.alg).toBe("ES256");
    const docs = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("/api/user-service/openapi.json");
    const printed = output().match(/First admin created: (\S+) \/ (\S+)/);
    expect(printed).not.toBeNull();
    const login = await fetch(`http://127.0.0.1:${port}/api/user-service/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: printed?.[1], password: printed?.[2] }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user.roles).toContain("admin");
  });

  it("the Deno entry serves the same API", async () => {
    const deno = join(edgeDir, "node_modules/.bin/deno");
    const bin = existsSync(deno) ? deno : join(edgeDir, "../../node_modules/.bin/deno");
    const { key } = await startEntry(bin, [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys",
      "src/main.deno.ts",
    ]);
    expect(key.alg).toBe("ES256");
  });
});
