import { webConfig } from "../../config.server.ts";
import { activityMappings, PROXY_ROOT } from "../../lib/discord-activity.server.ts";

/**
 * The URL mappings to set in Discord's Developer Portal for this Booth (docs/discord.md), one a line: the prefix as
 * the Portal takes it (without /.proxy) and its target. The root mapping (`/` to this web server) comes first.
 */
export function loader() {
  const config = webConfig();
  const root = config.settings.WEB_URL ? new URL(config.settings.WEB_URL).host : "<this web server's host>";
  const lines = [
    `/\t${root}`,
    ...activityMappings(config).map((m) => `${m.prefix.slice(PROXY_ROOT.length)}\t${m.target}`),
  ];
  return new Response(`${lines.join("\n")}\n`, {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
