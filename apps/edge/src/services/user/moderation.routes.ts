import { createRouter } from "../../lib/openapi.ts";

export const moderationRoutes = createRouter();
