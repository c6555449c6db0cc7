import { createRouter } from "../../lib/openapi.ts";

export const adminPhoneRoutes = createRouter();
