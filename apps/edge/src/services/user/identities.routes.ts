import { createRouter } from "../../lib/openapi.ts";

export const identitiesRoutes = createRouter();
