import { createRouter } from "../../lib/openapi.ts";

export const notificationsRoutes = createRouter();
