import { createRouter } from "../../lib/openapi.ts";

export const passwordsRoutes = createRouter();
