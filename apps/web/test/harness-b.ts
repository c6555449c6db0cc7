/**
 * Additions to the browser-test harness for the music, profile and shop screens: a stack whose edge links (the
 * local checkout, upload URLs) point at the edge the test really runs, signed-up people with their uuid, catalogue
 * fixtures made by an admin, and a small WAV file.
 */
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { emailFor, type Person, type Stack, signUp, verifyEmail } from "./harness.ts";

export { startStack } from "./harness.ts";

export interface SignedUp extends Person {
  email: string;
  uuid: string;
  nickname: string;
}

/** A new person who signed up and verified their email through the screens. */
export async function signedUp(stack: Stack, nickname: string): Promise<SignedUp> {
  const person = await stack.person();
  const email = emailFor(nickname.toLowerCase().replace(/\W+/g, ""));
  await signUp(person.page, { nickname, email });
  await verifyEmail(stack, person.page, email);
  const [user] = await stack.t.db.select().from(schema.users).where(eq(schema.users.email, email));
  if (!user) throw new Error(`no user ${email}`);
  return { ...person, email, uuid: user.uuid, nickname };
}

/**
 * People who signed up through the screens, one after another: at once, four new browser contexts' first pages on a
 * just-started web server have outlasted 90 s on a loaded two-core CI machine, and in turn they cost no more time.
 */
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
