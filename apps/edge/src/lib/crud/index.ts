/**
 * The nestjsx/crud request query syntax (https://github.com/nestjsx/crud/wiki/Requests), parsed against an
 * allow-list of fields into Drizzle conditions. Only listed fields can be selected, filtered or sorted; every value
 * is bound as a parameter (never spliced into SQL) and LIKE patterns escape `%`, `_` and `\`.
 *
 *   fields=a,b                  the fields to answer (the primary key is always included)
 *   s={"name":"x"}              a JSON search condition; when present, filter and or are ignored
 *   filter=field||$op||value    repeatable, AND-ed
 *   or=field||$op||value        repeatable; see `combineFilters` for how it mixes with filter
 *   sort=field,ASC|DESC         repeatable, in order of precedence
 *   join=relation[||f1,f2]      repeatable, against the allow-list of relations
 *   limit, offset, page         page is 1-based and wins over offset
 *   cache                       accepted and ignored
 */
export { combineFilters, parseFilter, parseSearch } from "./filters.ts";
export { escapeLike, OPERATORS, type Operator } from "./operators.ts";
export {
  type CrudOptions,
  DEFAULT_LIMIT,
  type FieldSpec,
  type FieldType,
  MAX_LIMIT,
  MAX_LIST_VALUES,
  type SortOrder,
  type SortSpec,
} from "./options.ts";
export { applyCrud, type CrudPage, crudList, crudSelectPage, pickFields } from "./page.ts";
export { type CrudQuery, type CrudQueryParams, parseCrudQuery, parseSelection } from "./parse.ts";
export { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "./schemas.ts";
