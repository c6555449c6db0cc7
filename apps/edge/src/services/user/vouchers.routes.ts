import { createRouter } from "../../lib/openapi.ts";

export const vouchersRoutes = createRouter();
