import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";

/** Binary objects (images, audio) by key. */
export interface Storage {
  readonly kind: string;
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null>;
  delete(key: string): Promise<void>;
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
    async get(key) {
      return objects.get(key) ?? null;
    },
    async delete(key) {
      objects.delete(key);
    },
  };
}
