import { createRouter } from "../../lib/openapi.ts";

export const devicesRoutes = createRouter();
