/**
 * The web server compresses its text answers for browsers that accept it (#19): pages and scripts come brotli- or
 * gzip-encoded and decode to what an uncompressed request gets; images and small answers pass as they are.
 */
import { readdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { buildOnce, startWeb, webRoot } from "./harness.ts";

let web: Awaited<ReturnType<typeof startWeb>>;
beforeAll(async () => {
  await buildOnce();
  // No edge: the pages below render without one.
  web = await startWeb(await freePort(), { BOOTH_EDGE_URL: `http://127.0.0.1:${await freePort()}` });
}, 240_000);
afterAll(() => web?.stop());

/** The raw answer: its headers and undecoded bytes. */
function raw(path: string, acceptEncoding: string) {
  return new Promise<{ status: number; encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
    const req = request(`${web.url}${path}`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d) => chunks.push(d));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers["content-encoding"],
          vary: String(res.headers.vary ?? ""),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

it("sends pages and scripts compressed, decoding to the same bytes, and leaves images alone", async () => {
  const script = readdirSync(join(webRoot, "build/client/assets")).find((f) => f.endsWith(".js"));
  for (const path of ["/login", `/assets/${script}`]) {
    const plain = await raw(path, "identity");
    expect(plain.status).toBe(200);
    expect(plain.encoding).toBeUndefined();
    const br = await raw(path, "gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(br.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    const gzip = await raw(path, "gzip");
    expect(gzip.encoding).toBe("gzip");
    if (path.startsWith("/assets/")) {
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    } else {
      // A page carries a fresh nonce each time: the same page, nonces aside.
      const page = (b: Buffer) => b.toString().replace(/nonce="[^"]+"/g, "");
      expect(page(brotliDecompressSync(br.body))).toBe(page(plain.body));
      expect(page(gunzipSync(gzip.body))).toBe(page(plain.body));
    }
  }
  const icon = await raw("/favicon.ico", "gzip, br");
  expect(icon.status).toBe(200);
  expect(icon.encoding).toBeUndefined();
}, 60_000);
