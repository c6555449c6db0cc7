/**
 * Writes every service's OpenAPI document to a folder, one `<service>.json` each: the contract the SDK generates its
 * types from (`npm run sdk:generate` writes them to packages/sdk/openapi/). Usage: tsx scripts/openapi.ts <folder>
 */
import { mkdir, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { openApiDocument, SERVICES } from "../src/services/index.ts";

/** A document as the files hold it: JSON, two spaces, a final newline. */
export const documentText = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

const folder = process.argv[2];
if (!folder) {
  console.error("usage: tsx scripts/openapi.ts <folder>");
  process.exit(1);
}
const out = resolve(folder);
await mkdir(out, { recursive: true });
for (const service of SERVICES) {
  await writeFile(resolve(out, `${service.name}.json`), documentText(openApiDocument(service)));
  console.log(`wrote ${service.name}.json to ${out}`);
}
