import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./demo.routes.ts";
import { readDemoProgress } from "./demo-progress.ts";

export const demoProgress: AppRouteHandler<typeof routes.demoProgress> = async (c) =>
  c.json(await readDemoProgress(c.var.deps.cache), 200);
