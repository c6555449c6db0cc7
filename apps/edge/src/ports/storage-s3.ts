import { AwsClient } from "aws4fetch";
import type { EdgeSettings } from "../config.ts";
import { answered } from "./provider-post.ts";
import type { Storage } from "./storage.ts";

export interface S3Options {
  /** S3_BUCKET */
  bucket: string;
  /** S3_ENDPOINT: unset for AWS (from the region); MinIO, R2 and others give theirs. */
  endpoint?: string | undefined;
  /** S3_REGION (default us-east-1; R2 takes "auto"). */
  region?: string | undefined;
  /** S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY */
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO, most local servers). */
  forcePathStyle?: boolean | undefined;
  /** How long one request may take (default 60 s). */
  timeoutMs?: number | undefined;
}

const errorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

/** A key as a URL path: each segment encoded, the slashes kept. */
const keyPath = (key: string) => key.split("/").map(encodeURIComponent).join("/");

/**
 * Any S3-compatible object store (AWS S3, Cloudflare R2, MinIO), signed with SigV4 by aws4fetch (which runs on Node,
 * Deno and Workers alike). Objects are private: the edge reads them and serves what a caller may have.
 */
export function s3Storage(options: S3Options): Storage {
  const region = options.region || "us-east-1";
  const signer = (retries: number) =>
    new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: "s3",
      region,
      retries,
    });
  const client = signer(2);
  // A streamed body is read once: it cannot be sent again, so its PUT is not retried.
  const streamClient = signer(0);
  const endpoint = new URL(options.endpoint || `https://s3.${region}.amazonaws.com`);
  const base = options.forcePathStyle
    ? `${endpoint.origin}${endpoint.pathname.replace(/\/$/, "")}/${encodeURIComponent(options.bucket)}`
    : `${endpoint.protocol}//${options.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, "")}`;
  const timeoutMs = options.timeoutMs ?? 60_000;

  async function call(method: string, key: string, init: { body?: Uint8Array; contentType?: string } = {}) {
    const headers: Record<string, string> = {};
    if (init.contentType) headers["content-type"] = init.contentType;
    return client.fetch(`${base}/${keyPath(key)}`, {
      method,
      headers,
      body: init.body as BodyInit | undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  /** An error naming what the store said (its XML error code), never the credentials. */
  async function failure(res: Response, what: string, text?: string) {
    const body = text ?? (await res.text().catch(() => ""));
    const code = errorCode(body) ?? res.statusText;
    return new Error(answered(`object storage ${what}`, res.status, { code, aside: `bucket ${options.bucket}` }));
  }

  /** The answer to a GET of an object, or null when there is no such key (no such bucket is a setting to fix). */
  async function fetchObject(key: string) {
    const res = await call("GET", key);
    if (res.status === 404) {
      const text = await res.text().catch(() => "");
      if (errorCode(text) === "NoSuchBucket") throw await failure(res, `GET ${key}`, text);
      return null;
    }
    if (!res.ok) throw await failure(res, `GET ${key}`);
    return res;
  }

  return {
    kind: "s3",
    async put(key, data, contentType) {
      const res = await call("PUT", key, { body: data, contentType });
      if (!res.ok) throw await failure(res, `PUT ${key}`);
      await res.body?.cancel();
    },
    async putStream(key, body, size, contentType) {
      // S3 takes a streamed PUT with its length; the payload goes unsigned (aws4fetch's UNSIGNED-PAYLOAD).
      const res = await streamClient.fetch(`${base}/${keyPath(key)}`, {
        method: "PUT",
        headers: { "content-type": contentType, "content-length": String(size) },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw await failure(res, `PUT ${key}`);
      await res.body?.cancel();
    },
    async getStream(key) {
      const res = await fetchObject(key);
      if (!res?.body) return null;
      return {
        body: res.body as ReadableStream<Uint8Array>,
        size: Number(res.headers.get("content-length") ?? 0),
        contentType: res.headers.get("content-type") ?? "application/octet-stream",
      };
    },
    async get(key) {
      const res = await fetchObject(key);
      if (!res) return null;
      const data = new Uint8Array(await res.arrayBuffer());
      return { data, contentType: res.headers.get("content-type") ?? "application/octet-stream" };
    },
    async delete(key) {
      const res = await call("DELETE", key);
      // Deleting what is not there is done too.
      if (!res.ok && res.status !== 404) throw await failure(res, `DELETE ${key}`);
      await res.body?.cancel();
    },
  };
}

/** The settings of the object storage (config.ts, which requires the keys with S3_BUCKET). */
export type S3Settings = Pick<
  EdgeSettings,
  "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_FORCE_PATH_STYLE"
>;

/** The S3 settings when S3_BUCKET is set, else null (the local folder). */
export function s3OptionsFrom(settings: S3Settings): S3Options | null {
  if (!settings.S3_BUCKET) return null;
  return {
    bucket: settings.S3_BUCKET,
    endpoint: settings.S3_ENDPOINT || undefined,
    region: settings.S3_REGION || undefined,
    accessKeyId: settings.S3_ACCESS_KEY_ID ?? "",
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY ?? "",
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
  };
}
