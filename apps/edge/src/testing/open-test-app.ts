import { afterAll, beforeAll } from "vitest";
import type { AppDeps } from "../deps.ts";
import { createTestApp, type TestApp } from "./app.ts";

/**
 * What `open` answers, for the tests of the file or `describe` this is called in: opened before them, closed (`close`)
 * after them. What this answers stands for it in those tests and their hooks; read anywhere else (at the top level of
 * a file, before it opened), it throws, naming `what`. Slow things (a whole browser stack) give their `timeouts`.
 */
export function openedForTests<T extends object>(
  what: string,
  open: () => Promise<T>,
  close: (opened: T) => Promise<unknown>,
  timeouts: { open?: number; close?: number } = {},
): T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
  }, timeouts.open);
  afterAll(async () => {
    const closing = opened;
    opened = undefined;
    if (closing) await close(closing);
  }, timeouts.close);
  return new Proxy({} as T, {
    get(_, key) {
      if (!opened)
        throw new Error(`${what} is open only in its tests and their hooks (${String(key)} was read outside)`);
      return Reflect.get(opened, key, opened);
    },
  });
}

/**
 * A test app (`createTestApp(overrides)`) for the tests of the file or `describe` it is called in: opened before them
 * and closed after them (`openedForTests`):
 *
 *   const t = openTestApp();
 *   it("...", async () => { const user = await t.createUser(); ... });
 */
export function openTestApp(overrides?: Partial<AppDeps>): TestApp {
  return openedForTests(
    "the test app",
    () => createTestApp(overrides),
    (app) => app.close(),
  );
}

/**
 * A test app of one test's own (`createTestApp(overrides)`: other settings, other ports), handed to `use` and closed
 * after it, whether it passed or failed: `await withTestApp({ config }, async (app) => { ... })`.
 */
export async function withTestApp<T>(overrides: Partial<AppDeps>, use: (app: TestApp) => Promise<T>): Promise<T> {
  const app = await createTestApp(overrides);
  try {
    return await use(app);
  } finally {
    await app.close();
  }
}
