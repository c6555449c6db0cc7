import { OpenAPIHono, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "./context.ts";
import { badRequest, statusText } from "./errors.ts";
import { validationHook } from "./validation.ts";

export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
export type Router = ReturnType<typeof createRouter>;

/** A handler of one route contract (`<resource>.routes.ts`), written in `<resource>.handlers.ts`. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;

export const ErrorSchema = z
  .object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
    code: z.string().optional(),
  })
  .openapi("Error");

export const json = <T extends z.ZodType>(schema: T, description = "OK") => ({
  content: { "application/json": { schema } },
  description,
});

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  body: { content: { "application/json": { schema } }, required: true, ...(description ? { description } : {}) },
});

const seconds = (description: string) => ({ schema: { type: "integer" as const, minimum: 0 }, description });
/** The headers of a 429 (lib/rate-limit.ts): when to come back, and the window's limit and what is left of it. */
const RATE_LIMIT_HEADERS = {
  "Retry-After": seconds("Seconds until a new attempt may succeed"),
  "RateLimit-Limit": seconds("Attempts allowed in the window"),
  "RateLimit-Remaining": seconds("Attempts left in the window"),
  "RateLimit-Reset": seconds("Seconds until the window resets"),
};

/** Error responses of a route, in the one envelope (a 429 with its rate-limit headers). */
export const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      code,
      code === 429
        ? { ...json(ErrorSchema, statusText(code)), headers: RATE_LIMIT_HEADERS }
        : json(ErrorSchema, statusText(code)),
    ]),
  ) as Record<number, ReturnType<typeof json<typeof ErrorSchema>>>;

export const noContent = { 204: { description: "No Content" } } as const;

export const bearer = [{ bearerAuth: [] }];

export const Uuid = z.uuid();

/** A comma-separated list of uuids from a query parameter; a 400 naming the field when one is not a uuid. */
export function uuidList(value: string | undefined, field: string): string[] {
  const ids = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.filter((id) => !Uuid.safeParse(id).success);
  if (bad.length) throw badRequest(bad.map((id) => `${field}: ${id} is not a uuid`));
  return ids;
}

/** limit/offset paging for plain lists (admin lists with filters use the nestjsx/crud query instead). */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), total: z.number().int() }).openapi(name);
export const UuidParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });

export interface DocumentInfo {
  title: string;
  version: string;
  prefix: string;
}

export const documentConfig = (info: DocumentInfo) => ({
  openapi: "3.0.3",
  info: { title: info.title, version: info.version },
  servers: [{ url: info.prefix }],
});

/** Mounts the OpenAPI document of a service router at `/openapi.json`. */
export function withDocument(router: Router, info: DocumentInfo) {
  router.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  router.doc("/openapi.json", documentConfig(info));
  return router;
}
