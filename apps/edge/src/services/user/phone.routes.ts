import { createRouter } from "../../lib/openapi.ts";

export const phoneRoutes = createRouter();
