/**
 * Shapes of openapi.json that code generators (openapi-typescript, hey-api, orval,
 * openapi-zod-client, and the Java/C#/Kotlin ones) need, applied to the whole document after the
 * contract is turned into OpenAPI, so that no area has to remember them:
 * - a `pattern` is plain ECMAScript regex text, with no `\/`: generators that write it into a regex
 *   literal escape `/` themselves, and `\/` then becomes `\\/`, an invalid literal;
 * - an integer that can pass 2^31 − 1 (bytes, sizes, counts, sums of cents) says `format: int64`,
 *   or typed languages map it to a 32-bit int that overflows on a 10 GiB quota;
 * - an inline copy of a named schema (made when the contract adds a description or null to it) is
 *   a reference to it, so generators emit one type instead of a copy per place; a nullable one is
 *   `allOf: [$ref]` beside `nullable: true` and the referenced schema's `type`.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const SCHEMA_REF = '#/components/schemas/';

/** `\/` → `/` (an escaped backslash before a slash stays as it is). */
export function unescapeSlashes(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\' && pattern[i + 1] === '/') continue;
    out += char;
    if (char === '\\' && i + 1 < pattern.length) out += pattern[++i]!;
  }
  return out;
}

const INT32_MAX = 2 ** 31 - 1;
/** Property names of integers that grow with use: byte counts and sizes, counts, totals, sums of cents. */
const GROWING_INTEGER = /bytes|size|count|^total$|^total_|_cents$/;

/** Whether an integer schema of this property name can pass 2^31 − 1. */
function canPassInt32(name: string | undefined, schema: JsonObject): boolean {
  const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
  if (maximum !== undefined) return maximum > INT32_MAX;
  return name !== undefined && GROWING_INTEGER.test(name);
}

/** Every schema node of the document (examples are data, not schemas), with the property name it is the schema of. */
function walkSchemas(node: Json, visit: (schema: JsonObject, name: string | undefined) => void, name?: string): void {
  if (Array.isArray(node)) return node.forEach((child) => walkSchemas(child, visit, name));
  if (!isObject(node)) return;
  visit(node, name);
  for (const [key, child] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === 'properties' && isObject(child))
      for (const [property, schema] of Object.entries(child)) walkSchemas(schema, visit, property);
    // an array's items and a nullable reference's member are still that property's values
    else if (key === 'items' || key === 'allOf' || key === 'anyOf' || key === 'oneOf') walkSchemas(child, visit, name);
    else walkSchemas(child, visit, undefined);
  }
}

/** The type of the schema a nullable reference (`allOf: [$ref]` beside `nullable`) names. */
function nullableReferenceType(schema: JsonObject, schemas: Record<string, JsonObject>): Json | undefined {
  const members = schema['allOf'];
  if (
    schema['nullable'] !== true ||
    schema['type'] !== undefined ||
    !Array.isArray(members) ||
    members.length !== 1 ||
    !isObject(members[0])
  )
    return undefined;
  const ref = members[0]['$ref'];
  return typeof ref === 'string' && ref.startsWith(SCHEMA_REF)
    ? schemas[ref.slice(SCHEMA_REF.length)]?.['type']
    : undefined;
}

export function shapeForGenerators(document: JsonObject): void {
  const schemas = (document['components'] as { schemas: Record<string, JsonObject> }).schemas;
  walkSchemas(document, (schema, name) => {
    if (typeof schema['pattern'] === 'string') schema['pattern'] = unescapeSlashes(schema['pattern']);
    if (schema['type'] === 'integer' && schema['format'] === undefined && canPassInt32(name, schema))
      schema['format'] = 'int64';
    // OpenAPI 3.0 reads `nullable` only beside a `type` (Redocly: nullable-type-sibling): the referenced schema's
    const type = nullableReferenceType(schema, schemas);
    if (type !== undefined) schema['type'] = type;
  });
}

/** A schema without what does not change its values, to tell a copy of a component. */
function shapeOf(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(shapeOf);
  if (!isObject(schema)) return schema;
  const kept = Object.keys(schema)
    .filter((key) => !['example', 'nullable', 'description', 'title', 'additionalProperties'].includes(key))
    .sort();
  return Object.fromEntries(kept.map((key) => [key, shapeOf(schema[key]!)]));
}

/** A reference to `name`, with what the place adds: `allOf: [$ref]` beside `nullable` and a description. */
function referenceTo(name: string, nullable: boolean, description: Json | undefined): JsonObject {
  const ref = { $ref: `${SCHEMA_REF}${name}` };
  if (!nullable && description === undefined) return ref;
  return {
    allOf: [ref],
    ...(nullable ? { nullable: true } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/**
 * Replaces copies of named object schemas by references to them: an inline copy (the contract
 * added a description or null to a named schema), and, where it is referenced as nullable, a
 * component that is a copy of another (a name given to `X.nullable()`, e.g. QueueTrack of Track;
 * the shorter name wins). The place keeps the copy's description. Named request bodies of the same
 * shape keep their own names: they are different requests.
 */
export function referenceCopies(document: JsonObject): void {
  const schemas = (document['components'] as { schemas: Record<string, JsonObject> }).schemas;
  const byShape = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const name of Object.keys(schemas).sort((a, b) => a.length - b.length || a.localeCompare(b))) {
    const schema = schemas[name]!;
    if (!isObject(schema['properties'])) continue;
    const key = JSON.stringify(shapeOf(schema));
    const original = byShape.get(key);
    if (original) aliases.set(name, original);
    else byShape.set(key, name);
  }
  const replace = (node: Json, top: boolean): Json => {
    if (Array.isArray(node)) return node.map((child) => replace(child, false));
    if (!isObject(node)) return node;
    const description = node['description'];
    if (!top && isObject(node['properties'])) {
      const name = byShape.get(JSON.stringify(shapeOf(node)));
      if (name) return referenceTo(name, node['nullable'] === true, description);
    }
    const members = node['allOf'];
    if (node['nullable'] === true && Array.isArray(members) && members.length === 1 && isObject(members[0])) {
      const copy = String(members[0]['$ref'] ?? '').slice(SCHEMA_REF.length);
      const original = aliases.get(copy);
      if (original) return referenceTo(original, true, description ?? schemas[copy]!['description']);
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => [
        key,
        key === 'example' || key === 'examples' ? child : replace(child, false),
      ]),
    );
  };
  for (const name of Object.keys(schemas)) schemas[name] = replace(schemas[name]!, true) as JsonObject;
  document['paths'] = replace(document['paths']!, false);
}
