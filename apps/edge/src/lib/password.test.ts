import { describe, expect, it } from "vitest";
import { argon2, hashPassword, verifyPassword, wasmArgon2 } from "./password.ts";

describe("passwords", () => {
  it("hash with the native argon2id on Node, in the OWASP parameters, and verify", async () => {
    const impl = await argon2();
    expect(impl.kind).toBe("native");
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery!", hash)).toBe(false);
    expect(await verifyPassword("anything", null)).toBe(false);
    expect(await verifyPassword("anything", "not a hash")).toBe(false);
  });

  it("verify the same stored hashes with either implementation (the Deno entry uses the WebAssembly one)", async () => {
    const native = await argon2();
    const fromNative = await native.hash("s3cret tune");
    const fromWasm = await wasmArgon2.hash("s3cret tune");
    for (const impl of [native, wasmArgon2])
      for (const hash of [fromNative, fromWasm]) {
        expect(await impl.verify(hash, "s3cret tune")).toBe(true);
        expect(await impl.verify(hash, "s3cret tunes")).toBe(false);
      }
  });
});
