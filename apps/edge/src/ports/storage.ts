import { createWriteStream } from "node:fs";
import { type FileHandle, mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Binary objects (images, audio) by key. */
export interface Storage {
  readonly kind: string;
  /** Stores an object; `cacheControl` is what the store answers its readers with (a store that clients read directly). */
  put(key: string, data: Uint8Array, contentType: string, options?: { cacheControl?: string }): Promise<void>;
  /** Stores `size` bytes as they arrive: an upload is never held whole in memory. */
  putStream(key: string, body: ReadableStream<Uint8Array>, size: number, contentType: string): Promise<void>;
  /** An object as a stream, to read without holding it whole; null when there is none. */
  getStream(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number; contentType: string } | null>;
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /**
   * An address a client may GET the object from without the edge, valid for at least `seconds`; absent when clients
   * read this store's objects through the edge (a local folder, a bucket they cannot reach).
   */
  clientUrl?(key: string, seconds: number): Promise<string>;
}

/**
 * A file as a web stream that reads a chunk only when its reader asks. Node's Readable.toWeb(createReadStream()) reads
 * ahead without bound while its reader is slower (a probe on a loaded machine), holding the whole file in memory.
 */
export function fileStream(path: string, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        handle ??= await open(path);
        const buffer = new Uint8Array(chunk);
        const { bytesRead } = await handle.read(buffer, 0, chunk, null);
        if (bytesRead === 0) {
          await handle.close();
          controller.close();
        } else controller.enqueue(buffer.subarray(0, bytesRead));
      },
      async cancel() {
        await handle?.close();
      },
    },
    { highWaterMark: 0 },
  );
}

export function localStorage(root: string): Storage {
  const path = (key: string) => {
    const clean = normalize(key).replace(/^(\.\.(\/|\\|$))+/, "");
    return join(root, clean);
  };
  return {
    kind: "local",
    async put(key, data, contentType) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, data);
      await writeFile(`${file}.type`, contentType);
    },
    async putStream(key, body, _size, contentType) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream), createWriteStream(file));
      await writeFile(`${file}.type`, contentType);
    },
    async getStream(key) {
      const file = path(key);
      try {
        const [{ size }, contentType] = await Promise.all([stat(file), readFile(`${file}.type`, "utf8")]);
        return { body: fileStream(file), size, contentType };
      } catch {
        return null;
      }
    },
    async get(key) {
      try {
        const file = path(key);
        const [data, contentType] = await Promise.all([readFile(file), readFile(`${file}.type`, "utf8")]);
        return { data: new Uint8Array(data), contentType };
      } catch {
        return null;
      }
    },
    async delete(key) {
      const file = path(key);
      await rm(file, { force: true });
      await rm(`${file}.type`, { force: true });
    },
  };
}

export function memoryStorage(): Storage {
  const objects = new Map<string, { data: Uint8Array; contentType: string }>();
  return {
    kind: "memory",
    async put(key, data, contentType) {
      objects.set(key, { data, contentType });
    },
    async putStream(key, body, _size, contentType) {
      const data = new Uint8Array(await new Response(body).arrayBuffer());
      objects.set(key, { data, contentType });
    },
    async getStream(key) {
      const object = objects.get(key);
      return object
        ? {
            body: new Blob([object.data as Uint8Array<ArrayBuffer>]).stream(),
            size: object.data.length,
            contentType: object.contentType,
          }
        : null;
    },
    async get(key) {
      return objects.get(key) ?? null;
    },
    async delete(key) {
      objects.delete(key);
    },
  };
}
