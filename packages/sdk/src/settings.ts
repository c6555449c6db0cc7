/**
 * Settings read from the environment, once, through a zod schema per app (decision 0022). Each app's `config.ts`
 * declares its settings with the makers below (each field's name is the variable's name, its `.describe()` the
 * reference's text), and calls `readSettings` at start: every bad or missing setting is named in one message, and
 * everything else receives typed values. `settingsReference` is what docs/configuration.md is generated from.
 *
 * Runtime-neutral: it reads the map it is given, never `process.env`, so the edge's Deno entry and the rooms' Worker
 * use it as Node does.
 */
import { z } from "zod";
import { BRANDS, DEFAULT_BRAND } from "./brand.ts";

/** zod, for the apps' schemas: `z.object({...})` of settings, without a dependency of their own on it. */
export { z };

export type Environment = Readonly<Record<string, string | undefined>>;

/** Settings renamed: old name -> new name. The old name is still read (when the new one is unset), with a warning. */
export type Renamed = Readonly<Record<string, string>>;

/** Thrown by `readSettings`: its message names every bad or missing setting, on one line. */
export class SettingsError extends Error {
  // Fields, not parameter properties: plain Node (the rooms' scripts) loads this file by stripping its types.
  readonly app: string;
  readonly problems: readonly string[];
  constructor(app: string, problems: readonly string[]) {
    super(`${app} cannot start: ${problems.join("; ")}`);
    this.name = "SettingsError";
    this.app = app;
    this.problems = problems;
  }
}

/**
 * What the reference says of a setting's kind (shown in docs/configuration.md). Kept on the schema's definition,
 * which `.describe()`'s copy shares.
 */
const KIND = Symbol("booth.settingKind");
type KindedDef = { [KIND]?: string };
const kinded = <T extends z.ZodType>(schema: T, kind: string): T => {
  (schema.def as KindedDef)[KIND] = kind;
  return schema;
};

const quoted = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

/** The makers of settings: each takes the variable's text and checks and converts it. */
export const setting = {
  /** Any text (a secret, a name, a path). */
  text: () => kinded(z.string(), "text"),

  /** An http(s) address; a trailing slash is dropped (`keepPath`: kept, the address as URL writes it). */
  url: (options: { keepPath?: boolean } = {}) =>
    kinded(
      z.string().transform((value, ctx) => {
        let url: URL;
        try {
          url = new URL(value);
        } catch {
          ctx.addIssue({ code: "custom", message: `is not an address: ${quoted(value)} (give http(s)://host[:port])` });
          return z.NEVER;
        }
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          ctx.addIssue({ code: "custom", message: `is not an http(s) address: ${quoted(value)}` });
          return z.NEVER;
        }
        return options.keepPath ? url.href : value.replace(/\/+$/, "");
      }),
      "http(s) address",
    ),

  /** A whole number within bounds. */
  integer: (bounds: { min?: number; max?: number } = {}) => {
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = bounds;
    return kinded(
      z.string().transform((value, ctx) => {
        const number = /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
        if (!Number.isSafeInteger(number) || number < min || number > max) {
          const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
          ctx.addIssue({ code: "custom", message: `is not a whole number ${range}: ${quoted(value)}` });
          return z.NEVER;
        }
        return number;
      }),
      "whole number",
    );
  },

  /** A number (decimals allowed) within bounds. */
  number: (bounds: { min?: number; max?: number } = {}) => {
    const { min = 0, max = Number.MAX_VALUE } = bounds;
    return kinded(
      z.string().transform((value, ctx) => {
        const number = value.trim() === "" ? Number.NaN : Number(value);
        if (!Number.isFinite(number) || number < min || number > max) {
          ctx.addIssue({ code: "custom", message: `is not a number from ${min}: ${quoted(value)}` });
          return z.NEVER;
        }
        return number;
      }),
      "number",
    );
  },

  /** true or false (also 1/0, yes/no, on/off). */
  flag: () =>
    kinded(
      z.string().transform((value, ctx) => {
        const word = value.trim().toLowerCase();
        if (["true", "1", "yes", "on"].includes(word)) return true;
        if (["false", "0", "no", "off"].includes(word)) return false;
        ctx.addIssue({ code: "custom", message: `is not true or false: ${quoted(value)}` });
        return z.NEVER;
      }),
      "true or false",
    ),

  /** A comma-separated list (spaces around items dropped, empty items ignored). */
  list: () =>
    kinded(
      z.string().transform((value) =>
        value
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      ),
      "comma-separated list",
    ),

  /** Text `parse` checks and converts; it throws an error whose message says what is wrong ("must be ..."). */
  parsed: <T>(kind: string, parse: (value: string) => T) =>
    kinded(
      z.string().transform((value, ctx) => {
        try {
          return parse(value);
        } catch (err) {
          ctx.addIssue({ code: "custom", message: (err as Error).message });
          return z.NEVER;
        }
      }),
      kind,
    ),

  /** One of the words given. */
  oneOf: <const T extends readonly [string, ...string[]]>(words: T) =>
    kinded(
      z.string().transform((value, ctx) => {
        if ((words as readonly string[]).includes(value.trim())) return value.trim() as T[number];
        ctx.addIssue({ code: "custom", message: `is not one of ${words.join(", ")}: ${quoted(value)}` });
        return z.NEVER;
      }),
      words.join(" | "),
    ),
};

export interface ReadOptions {
  /** Old names still read, each with a warning naming the new one. */
  renamed?: Renamed;
  /** Where the warnings go (default: console.warn). */
  warn?: (message: string) => void;
}

/**
 * Parses the environment with an app's schema. An empty variable counts as unset. Throws `SettingsError` naming every
 * bad or missing setting; warns once for each old name it read.
 */
export function readSettings<S extends z.ZodObject>(
  app: string,
  schema: S,
  environment: Environment,
  options: ReadOptions = {},
): z.output<S> {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const input: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = environment[name];
    if (value !== undefined && value !== "") input[name] = value;
  }
  for (const [old, now] of Object.entries(options.renamed ?? {})) {
    const value = environment[old];
    if (value === undefined || value === "") continue;
    if (input[now] === undefined) {
      input[now] = value;
      warn(`${app}: ${old} is an old name, read as ${now}: rename it to ${now}`);
    } else if (input[now] !== value) {
      warn(`${app}: ${old} is an old name and is ignored: ${now} is set`);
    }
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.map(String).join(".");
    if (issue.code === "invalid_type" && issue.input === undefined) return `${name} is required`;
    return name ? `${name} ${issue.message}` : issue.message;
  });
  throw new SettingsError(app, problems);
}

/** One setting as the reference shows it. */
export interface SettingReference {
  name: string;
  kind: string;
  /** The default as text, or undefined when there is none. */
  byDefault?: string | undefined;
  required: boolean;
  description: string;
}

/** The settings of a schema, in its order, for the generated reference. */
export function settingsReference(schema: z.ZodObject): SettingReference[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    let inner = field as z.ZodType;
    let byDefault: string | undefined;
    let required = true;
    let description = inner.description;
    for (;;) {
      description ??= inner.description;
      if (inner instanceof z.ZodDefault) {
        const value = (inner.def as { defaultValue: unknown }).defaultValue;
        byDefault = typeof value === "string" ? value : JSON.stringify(value);
        required = false;
        inner = inner.def.innerType as z.ZodType;
      } else if (inner instanceof z.ZodOptional) {
        required = false;
        inner = inner.def.innerType as z.ZodType;
      } else break;
    }
    const kind = (inner.def as KindedDef)[KIND] ?? "text";
    return { name, kind, byDefault, required, description: description ?? inner.description ?? "" };
  });
}

/** BOOTH_EDGE_URL, where a server or tool reaches the edge: the local edge unless set (`description`: whose). */
export const edgeUrlSetting = (description: string) =>
  setting.url().default("http://127.0.0.1:8787").describe(description);

/** The two settings that say whether this is a production deployment, in every app's schema. */
export const deploymentSettings = {
  BOOTH_ENV: setting
    .text()
    .optional()
    .describe("The deployment's name (production, staging, ...); production makes the production checks apply."),
  NODE_ENV: setting.text().optional().describe("production also counts as a production deployment."),
};

/**
 * The settings a production deployment does not start without (name -> what it is), as a check to add to an app's
 * schema (`.check(requiredInProduction({...}))`). It runs even when another setting is bad, so that one message names
 * them all; `message` words what is missing (default: one "NAME is required in production (what)" each).
 */
export function requiredInProduction(
  needed: Readonly<Record<string, string>>,
  message = (missing: [name: string, what: string][]) =>
    missing.map(([name, what]) => `${name} is required in production (${what})`),
) {
  return z.superRefine<Record<string, unknown>>(
    (settings, ctx) => {
      if (!isProduction(settings as Parameters<typeof isProduction>[0])) return;
      const missing = Object.entries(needed).filter(([name]) => settings[name] === undefined);
      if (missing.length)
        for (const text of message(missing)) ctx.addIssue({ code: "custom", message: text, input: settings });
    },
    { when: () => true },
  );
}

/** Whether the settings read are a production deployment's: the one answer to "is this production?". */
export const isProduction = (settings: { BOOTH_ENV?: string | undefined; NODE_ENV?: string | undefined }) =>
  settings.BOOTH_ENV === "production" || settings.NODE_ENV === "production";

/** BOOTH_BRAND, in each app's settings: a value other than the two is refused at start, naming the setting. */
export const brandSetting = () =>
  setting
    .oneOf(BRANDS)
    .default(DEFAULT_BRAND)
    .describe(
      "Which Booth this is: streaming (uploads and the streaming providers: YouTube, Spotify, SoundCloud, Apple Music, Audius) or catalogue (uploads and the licensed catalogue, 7digital, only). It decides what search, imports, link lookups, the song picker and the player offer, and the web app's name and colours.",
    );
