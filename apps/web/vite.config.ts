import { readFile } from "node:fs/promises";
import { vitePlugin as remix } from "@remix-run/dev";
import { visualizer } from "rollup-plugin-visualizer";
import { defineConfig, type Plugin, type PluginOption, transformWithEsbuild } from "vite";
import { LANGUAGES } from "./app/i18n/languages.ts";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The service worker (app/service-worker/service-worker.ts) as /sw.js: its own file, outside the app's chunks, at the
 * root so its scope is the whole app. It imports nothing, so compiling its TypeScript is the whole build; the app's
 * languages are written in.
 */
function serviceWorker(): Plugin {
  const source = "app/service-worker/service-worker.ts";
  const compile = async (minify: boolean) =>
    (
      await transformWithEsbuild(await readFile(source, "utf8"), source, {
        loader: "ts",
        target: "es2022",
        minify,
        define: { BOOTH_LANGUAGES: JSON.stringify(LANGUAGES) },
      })
    ).code;
  return {
    name: "booth-service-worker",
    configureServer(server) {
      server.middlewares.use("/sw.js", (_req, res, next) => {
        compile(false).then((code) => {
          res.setHeader("content-type", "text/javascript; charset=utf-8");
          res.setHeader("cache-control", "no-cache");
          res.end(code);
        }, next);
      });
    },
    async generateBundle() {
      this.emitFile({ type: "asset", fileName: "sw.js", source: await compile(true) });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    isSsrBuild ? null : serviceWorker(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    // BUNDLE_REPORT=1 npm run build -w @booth/web: what the browser's chunks hold, module by module, with gzip sizes
    // (build/bundle-report.html, a treemap; BUNDLE_REPORT=json for the raw data).
    process.env.BUNDLE_REPORT && !isSsrBuild
      ? (visualizer({
          filename: `build/bundle-report.${process.env.BUNDLE_REPORT === "json" ? "json" : "html"}`,
          template: process.env.BUNDLE_REPORT === "json" ? "raw-data" : "treemap",
          gzipSize: true,
          brotliSize: false,
        }) as PluginOption)
      : null,
  ],
  server: { host: "127.0.0.1", port: 3000 },
}));
