import { createTestApp, type TestApp } from "./app.ts";
import { type FakeProviders, startFakeProviders } from "./fake-providers.ts";

/**
 * The set-up of the tests of outside services (Spotify, Apple Music, Discord, CometChat, Agora...): the local fake of
 * them all, a test app configured against it (`t`), and, when asked, one with no provider configured (`bare`).
 *
 *   beforeAll(async () => ({ fake, t, bare, close } = await startProviderApps({ bare: true })));
 *   afterAll(() => close());
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
