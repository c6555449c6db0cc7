/**
 * Additions to the browser-test harness for the music, profile and shop screens: a stack whose edge links (the
 * local checkout, upload URLs) point at the edge the test really runs, signed-up people with their uuid, catalogue
 * fixtures made by an admin, and a small WAV file.
 */
import { schema } from "@booth/db";
import { type FakeProviders, openedForTests, startFakeProviders } from "@booth/edge/testing";
import { eq } from "drizzle-orm";
import { emailedCode, emailFor, type Person, type Stack, TEST_PASSWORD } from "./harness.ts";

export { startStack } from "./harness.ts";

export interface SignedUp extends Person {
  email: string;
  uuid: string;
  nickname: string;
}

/**
 * A new person who signed up and verified their email through the web server's own forms, posted as a browser without
 * scripts posts them (the screens themselves have their tests in auth.suite.ts): the suites that only need someone
 * signed in do not draw the sign-up and verification pages in chromium for each person. They end on the home page,
 * signed in, as the screens leave them.
 */
export async function signedUp(stack: Stack, nickname: string): Promise<SignedUp> {
  const person = await stack.person();
  const email = emailFor(nickname.toLowerCase().replace(/\W+/g, ""));
  await postForm(person, "/signup", { nickname, email, password: TEST_PASSWORD }, /^\/verify-email/);
  await postForm(person, "/verify-email", { code: await emailedCode(stack, email) }, /^\/$/);
  // Where the verification leads, as after the screens: tests go on from a page of the site (its fetches, its links),
  // with its service worker active, as the screens' three pages left it. A navigation that starts while the worker
  // is still installing stays uncontrolled (the worker's claim comes before that page exists): the notification test
  // found no window of the worker's own to take to the room.
  await person.page.goto("/");
  await person.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  return { ...person, email, uuid: await uuidOf(stack, email), nickname };
}

/** The uuid of the user who signed up with `email`. */
export async function uuidOf(stack: Stack, email: string) {
  const [user] = await stack.t.db.select().from(schema.users).where(eq(schema.users.email, email));
  if (!user) throw new Error(`no user ${email}`);
  return user.uuid;
}

/** Posts a form to the web server in the person's browser context (its cookies) and expects a redirect to `to`. */
async function postForm(person: Person, path: string, form: Record<string, string>, to: RegExp) {
  const res = await person.context.request.post(path, { form, maxRedirects: 0, timeout: 90_000 });
  const location = res.headers().location ?? "";
  if (res.status() < 300 || res.status() >= 400 || !to.test(location))
    throw new Error(
      `POST ${path}: ${res.status()} to ${JSON.stringify(location)}: ${(await res.text()).slice(0, 300)}`,
    );
}

/**
 * The edge's local fakes of the providers for a suite's tests (`openedForTests`): started after the stack and handed
 * to its edge, which reads its providers from its configuration at each request; closed after the suite.
 */
export function suiteFakeProviders(stack: Stack): FakeProviders {
  return openedForTests(
    "the suite's fake providers",
    async () => {
      const fake = await startFakeProviders();
      stack.t.deps.config.integrations = fake.integrations;
      stack.t.deps.config.providers = { ...stack.t.deps.config.providers, ...fake.providers };
      return fake;
    },
    (fake) => fake.close(),
    { close: 60_000 },
  );
}

/** People who signed up (as `signedUp`), one after another: each waits for the edge's email before the next. */
export async function signedUpAll<N extends string[]>(
  stack: Stack,
  ...nicknames: N
): Promise<{ [K in keyof N]: SignedUp }> {
  const people: SignedUp[] = [];
  for (const nickname of nicknames) people.push(await signedUp(stack, nickname));
  return people as { [K in keyof N]: SignedUp };
}

/** Calls the edge as that user (setup and cross-checks, not what the test is about). */
export async function asUser(stack: Stack, uuid: string) {
  const token = await stack.t.tokenFor(uuid);
  return (method: string, path: string, body?: unknown) => stack.t.request(method, path, { token, body });
}

/** An admin's edge calls, for fixtures (products, bundles, consumables, seasons, avatars). */
export async function asAdmin(stack: Stack) {
  const admin = await stack.t.createUser({ roles: ["admin"] });
  return async (method: string, path: string, body?: unknown) => {
    const res = await stack.t.request(method, path, { token: admin.token, body });
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
}

/** A mono 16-bit PCM WAV of a soft chord: a real audio file the upload service accepts. */
export function wavFile(seconds = 2, rate = 22_050) {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const v =
      0.2 * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277.18 * t) + Math.sin(2 * Math.PI * 329.63 * t));
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, v / 1.2)) * 32_767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
