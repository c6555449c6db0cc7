import type { AppDeps } from "../deps.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { openForTests } from "./open-for-tests.ts";

/**
 * A test app (`createTestApp(overrides)`) for the tests of the file or `describe` it is called in: opened before them
 * and closed after them. What it answers stands for that app in those tests and their hooks:
 *
 *   const t = openTestApp();
 *   it("...", async () => { const user = await t.createUser(); ... });
 *
 * Read before the app opened (at the top level of a file), it throws.
 */
export function openTestApp(overrides?: Partial<AppDeps>): TestApp {
  let opened: TestApp | undefined;
  openForTests(
    () => createTestApp(overrides),
    (app) => (opened = app),
  );
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!opened) throw new Error("the test app opens before the first test: read it in a test or a hook");
      return Reflect.get(opened, key, opened);
    },
  });
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
