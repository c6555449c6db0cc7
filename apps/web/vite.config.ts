import { vitePlugin as remix } from "@remix-run/dev";
import { visualizer } from "rollup-plugin-visualizer";
import { defineConfig, type PluginOption } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
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
