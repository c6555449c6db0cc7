import { mkdir, writeFile } from "node:fs/promises";
import { GENERATED_DIR, generateSources } from "./codegen.ts";

await mkdir(GENERATED_DIR, { recursive: true });
for (const [name, source] of await generateSources()) {
  await writeFile(new URL(name, GENERATED_DIR), source);
  console.log(`wrote packages/sdk/src/generated/${name}`);
}
