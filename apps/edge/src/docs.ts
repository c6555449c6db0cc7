import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Hono } from "hono";
import type { AppEnv } from "./lib/context.ts";

/**
 * The API reference at /docs: Swagger UI over every service's OpenAPI document, its script and styles served by the
 * edge from the pinned swagger-ui-dist package, so the page works offline and loads nothing from a CDN.
 */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
};

// Reads the documents named on the page (no inline script, so a strict Content-Security-Policy holds).
const START = `window.addEventListener("load", () => {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    urls: JSON.parse(root.dataset.urls),
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout",
  });
});
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function mountDocs(app: Hono<AppEnv>, documents: { title: string; url: string }[]) {
  const dir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const files = new Map<string, Promise<string>>();
  const urls = escapeHtml(JSON.stringify(documents.map((d) => ({ name: d.title, url: d.url }))));
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Booth API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-urls="${urls}"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;
  app.get("/docs", (c) => c.html(page));
  app.get("/docs/start.js", (c) => c.body(START, 200, { "content-type": "text/javascript; charset=utf-8" }));
  app.get("/docs/:file", async (c) => {
    const name = c.req.param("file");
    const type = ASSETS[name];
    if (!type) return c.notFound();
    let file = files.get(name);
    if (!file) {
      file = readFile(join(dir, name), "utf8");
      files.set(name, file);
    }
    return c.body(await file, 200, { "content-type": type, "cache-control": "public, max-age=86400" });
  });
}
