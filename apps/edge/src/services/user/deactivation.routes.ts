import { createRouter } from "../../lib/openapi.ts";

export const deactivationRoutes = createRouter();
