import { argon2id, argon2Verify } from "hash-wasm";

// OWASP Password Storage Cheat Sheet: Argon2id, 19 MiB of memory, 2 iterations, 1 degree of parallelism.
// hash-wasm is WebAssembly, so the same code runs on Node, Deno and Workers.
export const ARGON2_PARAMS = { memorySize: 19456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return argon2id({ password, salt, ...ARGON2_PARAMS, outputType: "encoded" });
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    // Spend the same time as a real check so a missing account is not told apart by timing.
    await argon2Verify({ password, hash: await dummyHash() });
    return false;
  }
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
const dummyHash = () => {
  dummy ??= hashPassword(crypto.randomUUID());
  return dummy;
};
