import { createTestApp, type TestApp } from "./app.ts";
import { type FakeProviders, startFakeProviders } from "./fake-providers.ts";
import { openForTests } from "./open-for-tests.ts";

/**
 * The set-up of the tests of outside services (Spotify, Apple Music, Discord, CometChat, Agora...): the local fake of
 * them all, a test app configured against it (`t`), and, when asked, one with no provider configured (`bare`).
 * A test file takes them with `withProviderApps`, which also closes them.
 */
export async function startProviderApps(options: { bare: true }): Promise<ProviderApps & { bare: TestApp }>;
export async function startProviderApps(options?: { bare?: false }): Promise<ProviderApps>;
export async function startProviderApps(options: { bare?: boolean } = {}): Promise<ProviderApps> {
  const fake = await startFakeProviders();
  const t = await createTestApp({ config: fake.config });
  const bare = options.bare ? await createTestApp() : undefined;
  return {
    fake,
    t,
    ...(bare ? { bare } : {}),
    async close() {
      await t.close();
      await bare?.close();
      await fake.close();
    },
  };
}

export interface ProviderApps {
  fake: FakeProviders;
  t: TestApp;
  bare?: TestApp;
  close(): Promise<void>;
}

/**
 * Starts the provider apps before the tests of the file (or `describe`) it is called in, hands them to `take`, and
 * closes them after those tests:
 *
 *   let fake: FakeProviders;
 *   let t: TestApp;
 *   let bare: TestApp;
 *   withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));
 */
export function withProviderApps(options: { bare: true }, take: (apps: ProviderApps & { bare: TestApp }) => void): void;
export function withProviderApps(options: { bare?: false }, take: (apps: ProviderApps) => void): void;
export function withProviderApps(
  options: { bare?: boolean },
  take: (apps: ProviderApps & { bare: TestApp }) => void,
): void {
  // Without `bare`, the overload has `take` accept the apps without it.
  const start = async () => (options.bare ? startProviderApps({ bare: true }) : startProviderApps());
  openForTests(start as () => Promise<ProviderApps & { bare: TestApp }>, take);
}
