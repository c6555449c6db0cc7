import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SettingsError } from "@booth/sdk/settings";
import { describe, expect, it } from "vitest";
import { configFrom, readStart } from "./bootstrap.ts";
import { readEdgeSettings, renamedSettings, settingsSchema } from "./config.ts";
import { EDGE_DIR } from "./testing/edge-entry.ts";

describe("the edge's settings", () => {
  it("are typed, with the embedded defaults", () => {
    const settings = readEdgeSettings({ EMAIL_RESEND_SECONDS: "30", RUN_JOBS: "false", TRUST_PROXY: "10.0.0.0/8" });
    expect(settings).toMatchObject({ EMAIL_RESEND_SECONDS: 30, RUN_JOBS: false, PORT: 8787, LOG_LEVEL: "info" });
    expect(configFrom(settings)).toMatchObject({
      publicUrl: "http://127.0.0.1:8787",
      webUrl: "http://127.0.0.1:3000",
      emailResendSeconds: 30,
      trustProxy: ["10.0.0.0/8"],
    });
    // The edge's public address: BOOTH_PUBLIC_EDGE_URL, else BOOTH_EDGE_URL, else this machine on PORT.
    expect(configFrom(readEdgeSettings({ PORT: "9000" })).publicUrl).toBe("http://127.0.0.1:9000");
    expect(configFrom(readEdgeSettings({ BOOTH_EDGE_URL: "http://edge.internal:8787/" })).publicUrl).toBe(
      "http://edge.internal:8787",
    );
  });

  it("reach Audius's public API unless AUDIUS_API_URL names another, with Booth's app name", () => {
    expect(configFrom(readEdgeSettings({})).providers).toMatchObject({
      audiusApiUrl: "https://api.audius.co",
      audiusAppName: "Booth",
    });
    const set = configFrom(
      readEdgeSettings({ AUDIUS_API_URL: "https://audius.proxy.example/", AUDIUS_APP_NAME: "MyBooth" }),
    );
    expect(set.providers).toMatchObject({ audiusApiUrl: "https://audius.proxy.example", audiusAppName: "MyBooth" });
    expect(() => readEdgeSettings({ AUDIUS_API_URL: "ftp://audius" })).toThrow(/AUDIUS_API_URL/);
  });

  it("leave 7digital unconfigured without its key and secret, on 7digital's own addresses and the US catalogue", () => {
    expect(configFrom(readEdgeSettings({})).providers).toMatchObject({
      sevenDigitalApiUrl: "https://api.7digital.com/1.2",
      sevenDigitalPreviewsUrl: "https://previews.7digital.com",
      sevenDigitalConsumerKey: undefined,
      sevenDigitalConsumerSecret: undefined,
      sevenDigitalCountry: "US",
    });
    const set = configFrom(
      readEdgeSettings({
        SEVENDIGITAL_API_URL: "https://7d.proxy.example/1.2/",
        SEVENDIGITAL_PREVIEWS_URL: "https://clips.proxy.example",
        SEVENDIGITAL_CONSUMER_KEY: "key",
        SEVENDIGITAL_CONSUMER_SECRET: "secret",
        SEVENDIGITAL_COUNTRY: "gb",
      }),
    );
    expect(set.providers).toMatchObject({
      sevenDigitalApiUrl: "https://7d.proxy.example/1.2",
      sevenDigitalPreviewsUrl: "https://clips.proxy.example",
      sevenDigitalConsumerKey: "key",
      sevenDigitalConsumerSecret: "secret",
      sevenDigitalCountry: "GB",
    });
    expect(() => readEdgeSettings({ SEVENDIGITAL_COUNTRY: "GBR" })).toThrow(/SEVENDIGITAL_COUNTRY/);
  });

  it("name every bad or missing one in one message: a typo'd number, a bad address, a missing production secret", () => {
    const read = () =>
      readEdgeSettings({
        BOOTH_ENV: "production",
        EMAIL_RESEND_SECONDS: "6o",
        BOOTH_PUBLIC_EDGE_URL: "edge.example.org",
        BOOTH_SINGLE_INSTANCE: "true",
        BOOTH_SERVICE_SECRET: "s".repeat(40),
        VAPID_PUBLIC_KEY: "public",
        VAPID_PRIVATE_KEY: "private",
      });
    expect(read).toThrow(SettingsError);
    expect(read).toThrow(
      'Booth edge cannot start: BOOTH_PUBLIC_EDGE_URL is not an address: "edge.example.org" (give http(s)://host[:port]); EMAIL_RESEND_SECONDS is not a whole number 0 or more: "6o"; Booth is in production mode (NODE_ENV or BOOTH_ENV is production) and does not start without:  - JWT_PRIVATE_KEY: the private JWK (ES256) that signs every token, the same on every instance (npx tsx apps/edge/src/scripts/jwt-key.ts)',
    );
  });

  it("name the settings one needs with another", () => {
    const problems = (environment: Record<string, string>) => {
      try {
        readEdgeSettings(environment);
        return [];
      } catch (err) {
        return (err as SettingsError).problems;
      }
    };
    expect(problems({ RESEND_API_KEY: "re_x", TWILIO_ACCOUNT_SID: "AC1", TWILIO_FROM: "+1" })).toEqual([
      "MAIL_FROM is required when RESEND_API_KEY is set",
      "TWILIO_AUTH_TOKEN is required when TWILIO_ACCOUNT_SID is set",
    ]);
    expect(problems({ BOOTH_SERVICE_SECRET: "short", TRUST_PROXY: "10.0.0.0/8, proxy.internal" })).toEqual([
      'TRUST_PROXY "proxy.internal" is not an IP address or CIDR range.',
      "BOOTH_SERVICE_SECRET must be at least 32 characters long.",
    ]);
    // A pooled address (a pooler in transaction mode) needs the direct one where migrations run, and is one itself.
    const pooled = { DATABASE_URL: "postgres://booth@pool.internal:6432/booth", DATABASE_POOLED: "true" };
    expect(problems(pooled)).toEqual([
      "DATABASE_DIRECT_URL is required with DATABASE_POOLED=true where migrations run: the database's own address (a pooler in transaction mode would not keep the migrations' lock)",
    ]);
    expect(problems({ ...pooled, MIGRATE_ON_START: "false" })).toEqual([]);
    expect(problems({ ...pooled, DATABASE_DIRECT_URL: "postgres://booth@db.internal:5432/booth" })).toEqual([]);
    expect(problems({ DATABASE_POOLED: "true", MIGRATE_ON_START: "false" })).toEqual([
      "DATABASE_URL is required with DATABASE_POOLED=true",
    ]);
  });

  it("still read an old name, warning through the edge's log with the new one", () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const { settings, logger } = readStart(
      { PUBLIC_URL: "https://api.booth.example/", PARTY_URL: "http://rooms.internal:1999" },
      "Booth edge",
      destination,
    );
    expect(settings.BOOTH_PUBLIC_EDGE_URL).toBe("https://api.booth.example");
    expect(settings.BOOTH_PARTY_URL).toBe("http://rooms.internal:1999");
    expect(configFrom(settings).publicUrl).toBe("https://api.booth.example");
    logger({ level: "info", msg: "flushed" });
    const warnings = lines
      .flatMap((line) => line.split("\n").filter(Boolean))
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter((entry) => entry.level === "warn");
    expect(warnings.map((entry) => entry.msg)).toEqual([
      "Booth edge: PUBLIC_URL is an old name, read as BOOTH_PUBLIC_EDGE_URL: rename it to BOOTH_PUBLIC_EDGE_URL",
      "Booth edge: PARTY_URL is an old name, read as BOOTH_PARTY_URL: rename it to BOOTH_PARTY_URL",
    ]);
    // The new name wins over the old one.
    const both = readEdgeSettings(
      { BOOTH_PARTY_URL: "http://rooms:1999", PARTY_URL: "http://old-rooms:1999" },
      { warn: (msg) => lines.push(msg) },
    );
    expect(both.BOOTH_PARTY_URL).toBe("http://rooms:1999");
    expect(lines.at(-1)).toBe("Booth edge: PARTY_URL is an old name and is ignored: BOOTH_PARTY_URL is set");
  });

  it("describe each setting, and rename only to settings of the schema", () => {
    for (const [name, field] of Object.entries(settingsSchema.shape))
      expect(field.description, name).toMatch(/^\S.{15,}\.$/);
    for (const now of Object.values(renamedSettings)) expect(Object.keys(settingsSchema.shape)).toContain(now);
  });
});

/** What reads the environment: `process.env`, `Deno.env`, or a map of it (`env.NAME`, `env["NAME"]`). */
const READS_ENVIRONMENT =
  /process\s*(?:\?\.|\.)\s*env\b|Deno\s*\.\s*env\b|\b(?:env|environment)\s*(?:\?\.|\.)\s*[A-Z][A-Z0-9_]*\b|\b(?:env|environment)\s*\[/;
/** The entries, which may take the environment only to hand it to config.ts, once. */
const ENTRIES = ["main.node.ts", "main.deno.ts", "main.worker.ts", "main.migrate.ts"];
const HANDED = /\b(?:readStart|readMigrateSettings)\(\s*(?:process\.env|Deno\.env\.toObject\(\))\s*[,)]/g;

describe("reading the environment", () => {
  it("happens in config.ts alone, handed the environment by the entries", () => {
    const src = join(EDGE_DIR, "src");
    const sources = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("testing"))
      .map((file) => ({ file: file.replaceAll("\\", "/"), code: readFileSync(join(src, file), "utf8") }));
    expect(sources.length).toBeGreaterThan(100);
    const readers = sources
      .filter(({ file, code }) => {
        const rest = ENTRIES.includes(file) ? code.replace(HANDED, "") : code;
        return READS_ENVIRONMENT.test(rest.replace(/^\s*(?:\/\/|\*).*$/gm, ""));
      })
      .map(({ file }) => file);
    expect(readers, `read the environment outside config.ts (${relative(EDGE_DIR, src)})`).toEqual([]);
    for (const entry of ENTRIES)
      expect(sources.find(({ file }) => file === entry)?.code.match(HANDED), entry).toHaveLength(1);
  });

  it("is caught by that check", () => {
    for (const line of [
      "const port = process.env.PORT;",
      "const url = globalThis.process?.env?.ARGON2;",
      "const all = Deno.env.toObject();",
      "const key = env.RESEND_API_KEY;",
      'const key = env["RESEND_API_KEY"];',
    ])
      expect(READS_ENVIRONMENT.test(line), line).toBe(true);
    expect(READS_ENVIRONMENT.test("const address = env?.incoming?.socket?.remoteAddress;")).toBe(false);
  });
});
