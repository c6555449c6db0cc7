import { createLogger, type Logger } from "@booth/sdk/node/logger";
import { webConfig } from "../config.server.ts";
import { currentRequestId } from "./visitor.server.ts";

/**
 * The web server's log: pino's JSON lines at LOG_LEVEL, with secrets censored (@booth/sdk/node/logger), each with the
 * id of the request being answered. One logger for the process, kept under a global symbol: server.ts and the built
 * app (build/server) each load their own copy of this module (as lib/visitor.server.ts's store). server.ts refuses a
 * bad LOG_LEVEL (with every other bad setting) before it starts; under `remix vite:dev` bad settings leave it at `info`.
 */
const KEY = Symbol.for("booth.web.logger");
const registry = globalThis as { [KEY]?: Logger };

export function webLog(): Logger {
  registry[KEY] ??= createLogger({
    level: levelOrInfo(),
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  }).log;
  return registry[KEY];
}

function levelOrInfo() {
  try {
    return webConfig().settings.LOG_LEVEL;
  } catch {
    return "info" as const;
  }
}
