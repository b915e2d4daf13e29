import type { ZodTypeAny } from 'zod';

/**
 * Attaches OpenAPI schema fields to a zod schema. The generator (@anatine/zod-openapi, used by
 * @ts-rest/open-api) reads them from `metaOpenApi`; a `title` turns the schema into a named
 * component. Kept local so the contract (and the browser client) does not import the generator.
 */
export function withOpenApi<T extends ZodTypeAny>(schema: T, meta: Record<string, unknown>): T {
  const target = schema as T & { metaOpenApi?: Record<string, unknown> };
  target.metaOpenApi = { ...(target.metaOpenApi ?? {}), ...meta };
  return schema;
}

/** Names a schema so it appears once under components.schemas and is referenced elsewhere. */
export function named<T extends ZodTypeAny>(title: string, schema: T): T {
  return withOpenApi(schema, { title });
}
