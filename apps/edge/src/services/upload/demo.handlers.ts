import type { AppRouteHandler } from "../../lib/openapi.ts";
import { readDemoProgress } from "../../seed/demo-progress.ts";
import type * as routes from "./demo.routes.ts";

export const demoProgress: AppRouteHandler<typeof routes.demoProgress> = async (c) =>
  c.json(await readDemoProgress(c.var.deps.cache), 200);
