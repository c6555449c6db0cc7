import { createRouter } from "../../lib/openapi.ts";

export const eventsRoutes = createRouter();
