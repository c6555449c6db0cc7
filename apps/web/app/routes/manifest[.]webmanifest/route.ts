import { BRAND_NAMES } from "@booth/sdk/brand";
import { webConfig } from "../../config.server.ts";
import { THEME_COLORS } from "../../lib/brand.ts";

/**
 * The installable app's manifest (decision 0014), in this Booth's brand (BOOTH_BRAND): its name and colours. A
 * resource route rather than a file of public/, since the brand is a setting of the server.
 */
export function loader() {
  const { brand } = webConfig();
  const name = BRAND_NAMES[brand];
  const manifest = {
    id: "/",
    name,
    short_name: name,
    description:
      brand === "catalogue"
        ? "Live music rooms from the licensed catalogue and your uploads: take a seat in the DJ booth, vote and chat with the room."
        : "Live music rooms: take a seat in the DJ booth, vote and chat with the room.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: THEME_COLORS[brand],
    theme_color: THEME_COLORS[brand],
    categories: ["music", "social", "entertainment"],
    icons: [
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest, null, 2), {
    headers: { "content-type": "application/manifest+json", "cache-control": "public, max-age=3600" },
  });
}
