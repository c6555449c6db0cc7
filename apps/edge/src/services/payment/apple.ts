// @peculiar/x509 resolves its parsers through tsyringe, which needs the Reflect metadata API loaded first.
import "reflect-metadata";
import { BasicConstraintsExtension, X509Certificate } from "@peculiar/x509";
import { compactVerify, decodeProtectedHeader, importX509 } from "jose";

export const APPLE_UNCONFIGURED =
  "The App Store webhook is not configured: set APPLE_ROOT_CA_PEM (or APPLE_ROOT_CA_PATH).";

/** Marker extensions Apple puts on the certificates that sign App Store data (as Apple's own libraries check). */
export const APPLE_LEAF_OID = "1.2.840.113635.100.6.11.1";
export const APPLE_INTERMEDIATE_OID = "1.2.840.113635.100.6.2.1";

/** The signed data does not verify; the message says why, for the caller and the logs. */
export class AppleSignatureError extends Error {}

const fromBase64 = (value: string) => {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};
const sameBytes = (a: ArrayBuffer, b: ArrayBuffer) => {
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};
const isCa = (cert: X509Certificate) => cert.getExtension(BasicConstraintsExtension)?.ca === true;
const inForce = (cert: X509Certificate, at: Date) => cert.notBefore <= at && at <= cert.notAfter;

let parsedRoot: { pem: string; cert: X509Certificate } | null = null;
function rootCertificate(pem: string) {
  if (parsedRoot?.pem !== pem) parsedRoot = { pem, cert: new X509Certificate(pem) };
  return parsedRoot.cert;
}

/**
 * Verifies an App Store JWS (a notification's `signedPayload`, or the transaction and renewal infos inside it) and
 * answers its payload. The `x5c` header must be a chain leaf -> intermediate -> root in which each certificate is in
 * force at `at` and signed by the next, the intermediate is a CA, and the chain ends at the configured root; the leaf
 * and intermediate carry Apple's marker extensions; the JWS is ES256 and verifies with the leaf's key.
 */
export async function verifyAppleJws(jws: string, rootPem: string, at: Date): Promise<unknown> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw new AppleSignatureError("The signed payload is not a JWS.");
  }
  if (header.alg !== "ES256") throw new AppleSignatureError("The signed payload must be signed with ES256.");
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length < 2 || x5c.length > 4 || !x5c.every((c) => typeof c === "string"))
    throw new AppleSignatureError("The signed payload carries no certificate chain (x5c).");
  let chain: X509Certificate[];
  let root: X509Certificate;
  try {
    chain = x5c.map((c) => new X509Certificate(fromBase64(c)));
  } catch {
    throw new AppleSignatureError("The certificate chain (x5c) cannot be read.");
  }
  try {
    root = rootCertificate(rootPem);
  } catch {
    throw new AppleSignatureError("The configured App Store root certificate cannot be read.");
  }
  if (!inForce(root, at)) throw new AppleSignatureError("The configured App Store root certificate is not in force.");

  // Apple sends the root as the chain's last element; it must be the configured one, byte for byte.
  const last = chain[chain.length - 1] as X509Certificate;
  const path = sameBytes(last.rawData, root.rawData) ? chain.slice(0, -1) : chain;
  if (path.length < 2) throw new AppleSignatureError("The certificate chain is too short.");
  for (const [i, cert] of path.entries()) {
    const issuer = path[i + 1] ?? root;
    if (!inForce(cert, at))
      throw new AppleSignatureError("A certificate of the chain has expired or is not yet valid.");
    if (!isCa(issuer)) throw new AppleSignatureError("A certificate of the chain is signed by a non-CA certificate.");
    if (cert.issuer !== issuer.subject || !(await cert.verify({ publicKey: issuer.publicKey, signatureOnly: true })))
      throw new AppleSignatureError("The certificate chain does not lead to the App Store root.");
  }
  const [leaf, intermediate] = path as [X509Certificate, X509Certificate];
  if (isCa(leaf)) throw new AppleSignatureError("The signing certificate must not be a CA.");
  if (!leaf.getExtension(APPLE_LEAF_OID) || !intermediate.getExtension(APPLE_INTERMEDIATE_OID))
    throw new AppleSignatureError("The certificate chain is not one Apple issues for App Store data.");

  try {
    const key = await importX509(leaf.toString("pem"), "ES256");
    const { payload } = await compactVerify(jws, key, { algorithms: ["ES256"] });
    return JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw new AppleSignatureError("The signed payload's signature does not verify.");
  }
}
