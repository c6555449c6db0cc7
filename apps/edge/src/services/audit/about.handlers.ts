import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./about.routes.ts";
import { serviceInfo } from "./about.ts";

export const about: AppRouteHandler<typeof routes.about> = (c) => c.json(serviceInfo(), 200);
