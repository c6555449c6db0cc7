import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  deploymentSettings,
  readSettings,
  requiredInProduction,
  SettingsError,
  setting,
  settingsReference,
} from "./settings.ts";

const schema = z.object({
  EDGE_URL: setting.url().default("http://127.0.0.1:8787").describe("Where the edge is."),
  RESEND_SECONDS: setting.integer({ min: 1 }).default(60).describe("Seconds between two emails."),
  SECRET: setting.text().describe("The secret."),
  DEBUG: setting.flag().optional().describe("Log more."),
  HOSTS: setting.list().default([]).describe("Hosts."),
  MODE: setting.oneOf(["a", "b"]).default("a").describe("The mode."),
});

describe("readSettings", () => {
  it("hands typed values, with the defaults of what is unset or empty", () => {
    expect(
      readSettings("test", schema, {
        SECRET: "s",
        RESEND_SECONDS: "30",
        DEBUG: "yes",
        HOSTS: "a.org, b.org,",
        EDGE_URL: "",
      }),
    ).toEqual({
      EDGE_URL: "http://127.0.0.1:8787",
      RESEND_SECONDS: 30,
      SECRET: "s",
      DEBUG: true,
      HOSTS: ["a.org", "b.org"],
      MODE: "a",
    });
  });

  it("names every bad or missing setting in one message", () => {
    const read = () =>
      readSettings("Booth's edge", schema, { EDGE_URL: "ftp://x", RESEND_SECONDS: "6o", DEBUG: "maybe", MODE: "c" });
    expect(read).toThrow(SettingsError);
    expect(read).toThrow(
      'Booth\'s edge cannot start: EDGE_URL is not an http(s) address: "ftp://x"; RESEND_SECONDS is not a whole number 1 or more: "6o"; SECRET is required; DEBUG is not true or false: "maybe"; MODE is not one of a, b: "c"',
    );
  });

  it("reads an old name as the new one, with a warning naming the new one", () => {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    const renamed = { OLD_URL: "EDGE_URL" };
    const read = (environment: Record<string, string>) =>
      readSettings("web", schema, { SECRET: "s", ...environment }, { renamed, warn }).EDGE_URL;
    expect(read({ OLD_URL: "https://api.example.org/" })).toBe("https://api.example.org");
    expect(warnings).toEqual(["web: OLD_URL is an old name, read as EDGE_URL: rename it to EDGE_URL"]);
    expect(read({ OLD_URL: "https://old.example.org", EDGE_URL: "https://new.example.org" })).toBe(
      "https://new.example.org",
    );
    expect(warnings[1]).toBe("web: OLD_URL is an old name and is ignored: EDGE_URL is set");
  });
});

describe("requiredInProduction", () => {
  const deployed = z
    .object({
      ...deploymentSettings,
      PORT: setting.integer({ max: 65535 }).default(80).describe("The port."),
      SECRET: setting.text().optional().describe("The secret."),
    })
    .check(requiredInProduction({ SECRET: "the key" }));

  it("names what production lacks beside every bad setting, and nothing outside production", () => {
    expect(() => readSettings("web", deployed, { BOOTH_ENV: "production", PORT: "eighty" })).toThrow(
      'web cannot start: PORT is not a whole number from 0 to 65535: "eighty"; SECRET is required in production (the key)',
    );
    expect(readSettings("web", deployed, { NODE_ENV: "production", SECRET: "s" }).SECRET).toBe("s");
    expect(readSettings("web", deployed, {}).SECRET).toBeUndefined();
  });
});

describe("settingsReference", () => {
  it("keeps a setting's kind through .describe()", () => {
    const described = z.object({ EDGE: setting.url().describe("Where."), ON: setting.flag().describe("Whether.") });
    expect(settingsReference(described).map((s) => s.kind)).toEqual(["http(s) address", "true or false"]);
  });

  it("lists each setting with its kind, default and text", () => {
    expect(settingsReference(schema)).toEqual([
      {
        name: "EDGE_URL",
        kind: "http(s) address",
        byDefault: "http://127.0.0.1:8787",
        required: false,
        description: "Where the edge is.",
      },
      {
        name: "RESEND_SECONDS",
        kind: "whole number",
        byDefault: "60",
        required: false,
        description: "Seconds between two emails.",
      },
      { name: "SECRET", kind: "text", byDefault: undefined, required: true, description: "The secret." },
      { name: "DEBUG", kind: "true or false", byDefault: undefined, required: false, description: "Log more." },
      { name: "HOSTS", kind: "comma-separated list", byDefault: "[]", required: false, description: "Hosts." },
      { name: "MODE", kind: "a | b", byDefault: "a", required: false, description: "The mode." },
    ]);
  });
});
