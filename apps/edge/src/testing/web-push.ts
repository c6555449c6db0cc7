import { createDecipheriv, createECDH, createHmac, type ECDH, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { importJWK, jwtVerify } from "jose";
import { closeServer, listenLocally } from "./local-server.ts";

/**
 * A browser's side of Web Push, for tests: a subscription key pair, and the RFC 8291 decryption a browser performs on
 * an aes128gcm message (written here from the RFC, independently of the library that encrypts).
 */
export function testSubscriber() {
  const ecdh: ECDH = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: auth.toString("base64url"),
    decrypt: (body: Buffer) => decryptAes128gcm(body, ecdh, auth),
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

export function decryptAes128gcm(body: Buffer, ua: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error("more than one record");
  const prkKey = hmac(authSecret, ua.computeSecret(serverPublic));
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ua.getPublicKey(), serverPublic]);
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  // The last record ends with the delimiter 2 before its padding.
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/** Checks a VAPID `Authorization: vapid t=..., k=...` header (RFC 8292); answers the JWT's claims and the key. */
export async function verifyVapid(header: string | undefined, audience: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID header: ${header}`);
  const point = Buffer.from(match[2], "base64url");
  const key = await importJWK(
    {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    "ES256",
  );
  const { payload } = await jwtVerify(match[1], key, { audience, algorithms: ["ES256"] });
  return { claims: payload, publicKey: match[2] };
}

export interface PushedMessage {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A local push service: records what it receives; paths listed in `gone` answer 410 (the subscription expired),
 * paths under `/missing/` 404.
 */
export async function localPushService() {
  const received: PushedMessage[] = [];
  const gone = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = gone.has(path) ? 410 : path.startsWith("/missing/") ? 404 : 201;
      res.end();
    });
  });
  const origin = await listenLocally(server);
  return {
    origin,
    received,
    gone,
    endpoint: (id = crypto.randomUUID()) => `${origin}/push/${id}`,
    close: () => closeServer(server),
  };
}
