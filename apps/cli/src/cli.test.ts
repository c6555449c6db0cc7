import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestApp, type TestApp } from "@booth/edge/testing";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = new URL("../bin/booth.mjs", import.meta.url).pathname;

let t: TestApp;
let server: ReturnType<typeof serve>;
let home: string;
let api: string;
beforeAll(async () => {
  t = await createTestApp();
  // The CLI runs as its own process against a real HTTP server of the edge.
  t.clock.now = () => new Date();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  home = await mkdtemp(join(tmpdir(), "booth-cli-"));
});
afterAll(async () => {
  server.close();
  await t.close();
  await rm(home, { recursive: true, force: true });
});

async function booth(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: home, BOOTH_API_URL: api },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("booth", () => {
  it("logs in, keeps the session private to its owner, and says who it is", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"], nickname: "boss" });
    const wrong = await booth("login", "-e", admin.email, "-p", "wrong password");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Incorrect email or password.");
    const ok = await booth("login", "-e", admin.email, "-p", admin.password);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("Signed in as");
    expect((await stat(join(home, "booth", "config.json"))).mode & 0o777).toBe(0o600);
    const who = await booth("whoami", "--json");
    expect(JSON.parse(who.stdout)).toMatchObject({ nickname: "boss", roles: ["user", "admin"] });
  }, 60_000);

  it("creates vouchers that redeem once through the API, lists and revokes them", async () => {
    const made = await booth("vouchers", "create", "-n", "2", "--note", "cli", "--json");
    expect(made.code, made.stderr).toBe(0);
    const vouchers = JSON.parse(made.stdout) as { id: string; code: string }[];
    expect(vouchers).toHaveLength(2);
    const user = await t.createUser();
    const redeem = await t.request("PATCH", "/api/user-service/vouchers/redeem", {
      token: await t.tokenFor(user.user.uuid),
      body: { code: vouchers[0]?.code },
    });
    expect(redeem.status).toBe(200);
    const pending = await booth("vouchers", "list", "--status", "PENDING", "--json");
    expect(JSON.parse(pending.stdout).data.map((v: { code: string }) => v.code)).toEqual([vouchers[1]?.code]);
    const revoked = await booth("vouchers", "revoke", vouchers[1]?.id ?? "");
    expect(revoked.stdout).toContain("Revoked");
    const again = await booth("vouchers", "revoke", vouchers[1]?.id ?? "");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already been redeemed or revoked");
    expect((await booth("vouchers", "list")).stdout).toMatch(/code\s+status/);
  }, 60_000);

  it("creates a season and shows the current one", async () => {
    const start = new Date(Date.now() - 86_400_000).toISOString();
    const end = new Date(Date.now() + 86_400_000).toISOString();
    const made = await booth("seasons", "create", "CLI Season", "--start", start, "--end", end, "--json");
    expect(made.code, made.stderr).toBe(0);
    expect((await booth("seasons", "current")).stdout).toContain("CLI Season");
    expect((await booth("seasons", "list", "--json")).stdout).toContain("CLI Season");
    const early = await booth("seasons", "close", JSON.parse(made.stdout).id);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("has not ended yet");
  }, 60_000);

  it("finds and moderates users, and credits tokens once per key", async () => {
    const target = await t.createUser({ email: "cli-target@example.com" });
    const list = await booth("users", "list", "-f", "email||$eq||cli-target@example.com", "--json");
    expect(JSON.parse(list.stdout).data[0].uuid).toBe(target.user.uuid);
    expect((await booth("users", "ban", target.user.uuid, "-r", "spam")).code).toBe(0);
    const login = await t.request("POST", "/api/user-service/auth/login", {
      body: { email: target.email, password: target.password },
    });
    expect(login.body.message).toBe("This account is banned.");
    expect((await booth("users", "unban", target.user.uuid)).code).toBe(0);
    expect((await booth("users", "capability", target.user.uuid, "uploadMusic")).stdout).toContain("uploadMusic");
    // The ban ended the old session; sign in again.
    const account = await t.request("POST", "/api/merch-service/api/v1/token-accounts", {
      token: await t.tokenFor(target.user.uuid),
    });
    const first = await booth("tokens", "credit", account.body.id, "50", "-r", "prize", "-k", "prize-1");
    expect(first.stdout, first.stderr).toContain("balance now 50");
    expect((await booth("tokens", "credit", account.body.id, "50", "-r", "prize", "-k", "prize-1")).stdout).toContain(
      "balance now 50",
    );
    expect((await booth("users", "show", crypto.randomUUID())).stderr).toContain("404");
  }, 60_000);

  it("has help with examples, completion, and logs out", async () => {
    expect((await booth("vouchers", "create", "--help")).stdout).toContain("Example");
    expect((await booth("completion")).stdout).toContain("complete -W");
    expect((await booth("logout")).stdout).toContain("Signed out.");
    const after = await booth("whoami");
    expect(after.code).toBe(1);
    expect(after.stderr).toContain("401");
  }, 60_000);
});
