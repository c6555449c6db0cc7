import { createRouter } from "../../lib/openapi.ts";

export const webPushRoutes = createRouter();
