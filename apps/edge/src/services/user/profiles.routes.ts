import { createRouter } from "../../lib/openapi.ts";

export const profilesRoutes = createRouter();
