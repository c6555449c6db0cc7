import { argon2id, argon2Verify } from "hash-wasm";

// OWASP Password Storage Cheat Sheet: Argon2id, 19 MiB of memory, 2 iterations, 1 degree of parallelism.
export const ARGON2_PARAMS = { memorySize: 19456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

/** An argon2id implementation: both write and read the same PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$...`). */
export interface Argon2 {
  readonly kind: "native" | "wasm";
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** hash-wasm: WebAssembly, so the same code runs on Node, Deno and Workers. */
export const wasmArgon2: Argon2 = {
  kind: "wasm",
  hash: (password) =>
    argon2id({ password, salt: crypto.getRandomValues(new Uint8Array(16)), ...ARGON2_PARAMS, outputType: "encoded" }),
  verify: (hash, password) => argon2Verify({ password, hash }),
};

// @node-rs/argon2's Algorithm.Argon2id (a const enum in its types, 2 at run time).
const ARGON2ID = 2;

/**
 * @node-rs/argon2 (Rust, a prebuilt binary per platform, off the event loop on libuv's threads): several times the
 * WebAssembly one's speed, where it loads. On Deno (no native addons without --allow-ffi) or a platform without a
 * binary the import fails and the WebAssembly one is used. ARGON2=wasm chooses the WebAssembly one anyway.
 */
async function loadNative(): Promise<Argon2 | null> {
  try {
    const native = await import("@node-rs/argon2");
    const options = {
      algorithm: ARGON2ID,
      memoryCost: ARGON2_PARAMS.memorySize,
      timeCost: ARGON2_PARAMS.iterations,
      parallelism: ARGON2_PARAMS.parallelism,
      outputLen: ARGON2_PARAMS.hashLength,
    };
    // A first hash proves the binary works here, not only that it was found.
    await native.hash("probe", options as never);
    return {
      kind: "native",
      hash: (password) => native.hash(password, options as never),
      verify: (hash, password) => native.verify(hash, password),
    };
  } catch {
    return null;
  }
}

let chosen: Promise<Argon2> | undefined;
/**
 * The argon2id this process uses: native where it loads, else WebAssembly. The first call chooses: the edge's start,
 * with its ARGON2 setting (wasm: the WebAssembly one anyway).
 */
export function argon2(setting?: "native" | "wasm"): Promise<Argon2> {
  chosen ??= (setting === "wasm" ? Promise.resolve(null) : loadNative()).then((native) => native ?? wasmArgon2);
  return chosen;
}

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const impl = await argon2();
  if (!hash) {
    // Spend the same time as a real check so a missing account is not told apart by timing.
    await impl.verify(await dummyHash(), password);
    return false;
  }
  try {
    return await impl.verify(hash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
const dummyHash = () => {
  dummy ??= hashPassword(crypto.randomUUID());
  return dummy;
};
