import { type BucketAddress, bucketUrl } from "@booth/sdk/media";
import { AwsClient } from "aws4fetch";
import { LRUCache } from "lru-cache";
import type { EdgeSettings } from "../config.ts";
import { answered } from "./provider-post.ts";
import type { Storage } from "./storage.ts";

export interface S3Options extends BucketAddress {
  /** S3_BUCKET; S3_ENDPOINT: unset for AWS (from the region); S3_REGION (default us-east-1; R2 takes "auto"). */
  bucket: string;
  /** S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY */
  accessKeyId: string;
  secretAccessKey: string;
  /** How long one request may take (default 60 s). */
  timeoutMs?: number | undefined;
  /**
   * How clients read objects without the edge (MEDIA_SEGMENTS, MEDIA_BASE_URL): by presigned GETs, or under a public
   * address in front of the bucket (a CDN); unset, they read through the edge.
   */
  clientReads?: "presigned" | { baseUrl: string } | undefined;
}

/** The longest a SigV4 presigned address may live (seven days). */
const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;
const HOUR_MS = 3600_000;

const errorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

/** A key as a URL path: each segment encoded, the slashes kept. */
const keyPath = (key: string) => key.split("/").map(encodeURIComponent).join("/");

/**
 * Any S3-compatible object store (AWS S3, Cloudflare R2, MinIO), signed with SigV4 by aws4fetch (which runs on Node,
 * Deno and Workers alike). Objects are private: the edge reads them and serves what a caller may have; with
 * `clientReads`, clients fetch what the edge names them (encrypted HLS segments) from the bucket itself.
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
  const base = bucketUrl(options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const clientReads = clientReadsOf(options, base, client);

  async function call(
    method: string,
    key: string,
    init: { body?: Uint8Array; contentType?: string; cacheControl?: string | undefined } = {},
  ) {
    const headers: Record<string, string> = {};
    if (init.contentType) headers["content-type"] = init.contentType;
    if (init.cacheControl) headers["cache-control"] = init.cacheControl;
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
    async put(key, data, contentType, putOptions) {
      const res = await call("PUT", key, { body: data, contentType, cacheControl: putOptions?.cacheControl });
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
    ...(clientReads ? { clientUrl: clientReads } : {}),
  };
}

/**
 * The addresses clients read objects at, for `clientReads` (unset: none). A presigned GET is signed as of the start
 * of the hour, so that everyone asking within an hour gets the same address (a browser's or a CDN's cache keeps one
 * copy), and lives the hour plus the time asked for (at most seven days, SigV4's limit). Being the same, it is signed
 * once an hour per object and lifetime and kept (a media playlist names every segment of its song: signing them all
 * for each listener was most of what a listener cost the edge, bench:capacity).
 */
function clientReadsOf(options: S3Options, base: string, signer: AwsClient) {
  const reads = options.clientReads;
  if (!reads) return null;
  if (reads !== "presigned") {
    const prefix = reads.baseUrl.replace(/\/+$/, "");
    return async (key: string) => `${prefix}/${keyPath(key)}`;
  }
  // The addresses signed this hour, by hour, object and lifetime: a deterministic signature, so any instance signs the
  // same one and this is a cache of a computation, not shared state.
  const signed = new LRUCache<string, Promise<string>>({ max: 50_000 });
  return (key: string, seconds: number) => {
    const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    const expires = String(Math.min(MAX_PRESIGNED_SECONDS, Math.ceil(seconds) + 3600));
    const id = `${hour.getTime()} ${expires} ${key}`;
    const known = signed.get(id);
    if (known) return known;
    const url = new URL(`${base}/${keyPath(key)}`);
    url.searchParams.set("X-Amz-Expires", expires);
    const signing = signer
      .sign(url.href, {
        method: "GET",
        aws: { signQuery: true, datetime: hour.toISOString().replace(/[:-]|\.\d{3}/g, "") },
      })
      .then((request) => request.url);
    signed.set(id, signing);
    signing.catch(() => signed.delete(id));
    return signing;
  };
}

/** The settings of the object storage (config.ts, which requires the keys with S3_BUCKET). */
export type S3Settings = Pick<
  EdgeSettings,
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
  | "MEDIA_SEGMENTS"
  | "MEDIA_BASE_URL"
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
    clientReads:
      settings.MEDIA_SEGMENTS === "edge"
        ? undefined
        : settings.MEDIA_BASE_URL
          ? { baseUrl: settings.MEDIA_BASE_URL }
          : "presigned",
  };
}
