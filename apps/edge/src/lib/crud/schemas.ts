/** The OpenAPI side: the query parameters of a list or a single-item read, and the page envelope. */
import { z } from "@hono/zod-openapi";
import { DEFAULT_LIMIT, MAX_LIMIT } from "./options.ts";

const repeatable = (description: string, example?: string) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(50)])
    .optional()
    .openapi({ description, ...(example ? { example } : {}) });

/** The query parameters of a nestjsx/crud list. */
export const CrudQuerySchema = z.object({
  fields: repeatable("Fields to answer, comma-separated (the id is always included)", "uuid,email"),
  s: z.string().max(4000).optional().openapi({
    description: 'JSON search condition, e.g. {"email":{"$cont":"abc"}}; when given, filter and or are ignored',
  }),
  filter: repeatable("field||$operator||value, repeatable, AND-ed", "email||$cont||example"),
  or: repeatable("field||$operator||value, repeatable, OR-ed (see the nestjsx/crud rules)"),
  sort: repeatable("field,ASC or field,DESC, repeatable", "createdAt,DESC"),
  join: repeatable("A relation to include: relation or relation||a,b, repeatable"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .openapi({ description: `Page size (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})` }),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).optional().openapi({ description: "Rows to skip" }),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .openapi({ description: "1-based page; wins over offset" }),
  cache: z.string().max(16).optional().openapi({ description: "Accepted for compatibility; ignored" }),
});

/** The query parameters of a single-item read: which fields and relations to answer. */
export const CrudSelectionSchema = CrudQuerySchema.pick({ fields: true, join: true, cache: true });

/** The nestjsx/crud list envelope around `item`. */
export const crudPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    count: z.number().int().openapi({ description: "Items in this page" }),
    total: z.number().int().openapi({ description: "Items matching the query" }),
    page: z.number().int().openapi({ description: "This page, 1-based" }),
    pageCount: z.number().int().openapi({ description: "Pages at this limit" }),
  });
