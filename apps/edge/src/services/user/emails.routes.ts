import { createRouter } from "../../lib/openapi.ts";

export const emailsRoutes = createRouter();
