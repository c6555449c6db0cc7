import { type CryptoKey, exportPKCS8, generateKeyPair } from "jose";

/** A new signing key pair: the public key a stand-in verifies with, the private one as the PEM a provider hands out. */
export async function pemKeyPair(alg: "ES256" | "RS256"): Promise<{ publicKey: CryptoKey; privatePem: string }> {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { publicKey: pair.publicKey, privatePem: await exportPKCS8(pair.privateKey) };
}
