import { createRouter } from "../../lib/openapi.ts";

export const imagesRoutes = createRouter();
