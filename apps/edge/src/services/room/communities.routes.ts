import { createRouter } from "../../lib/openapi.ts";

export const communitiesRoutes = createRouter();
