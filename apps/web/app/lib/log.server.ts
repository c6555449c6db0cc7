import { createLogger, type Logger, logLevelOf } from "@booth/sdk/node/logger";
import { currentRequestId } from "./visitor.server.ts";

/**
 * The web server's log: pino's JSON lines at LOG_LEVEL, with secrets censored (@booth/sdk/node/logger), each with the
 * id of the request being answered. One logger for the process, kept under a global symbol: server.ts and the built
 * app (build/server) each load their own copy of this module (as lib/visitor.server.ts's store). server.ts refuses a
 * bad LOG_LEVEL before it starts; under `remix vite:dev` one is taken as `info`.
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
    return logLevelOf(process.env);
  } catch {
    return "info" as const;
  }
}
