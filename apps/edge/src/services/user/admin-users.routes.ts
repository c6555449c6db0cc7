import { createRouter } from "../../lib/openapi.ts";

export const adminUsersRoutes = createRouter();
