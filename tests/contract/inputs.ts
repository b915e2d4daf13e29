/**
 * Valid request inputs, generated from the contract's zod schemas with zod-fast-check.
 *
 * zod-fast-check covers most schemas as they are. Where it cannot produce valid values on its own,
 * the schema tree is walked and the ZodFastCheck instance is given an override for that schema
 * instance, found by what the schema is (not by name), so new routes need nothing here:
 * - strings with a regex: fc.stringMatching instead of filtering random text;
 * - strings with .email(): fast-check's RFC addresses are wider than zod's check, so plain ones;
 * - refinements across fields (password === password_confirmation): the inner object is generated,
 *   then a field the refinement complains about is given another field's value;
 * - binary fields (OpenAPI format binary, e.g. an upload's file): a File, mostly a tiny real WAV.
 * Every value is checked with the schema itself; none that fails it is produced.
 */
import fc from 'fast-check';
import { ZodFastCheck } from 'zod-fast-check';
import type { ZodTypeAny } from 'zod';
import type { AppRoute } from '@ts-rest/core';
import { bodySchema, headersSchema, pathParamNames, pathParamsSchema, querySchema } from './operations.js';

type Def = { typeName?: string } & Record<string, unknown>;
type Check = { kind: string; regex?: RegExp };

const defOf = (schema: ZodTypeAny) => schema._def as Def;

/** Children of a schema that may need overrides themselves. */
function childrenOf(schema: ZodTypeAny): ZodTypeAny[] {
  const def = defOf(schema);
  switch (def.typeName) {
    case 'ZodObject':
      return Object.values((schema as unknown as { shape: Record<string, ZodTypeAny> }).shape);
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodReadonly':
      return [def.innerType as ZodTypeAny];
    case 'ZodArray':
      return [def.type as ZodTypeAny];
    case 'ZodSet':
      return [def.valueType as ZodTypeAny];
    case 'ZodRecord':
    case 'ZodMap':
      return [def.keyType as ZodTypeAny, def.valueType as ZodTypeAny];
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion': {
      const options = def.options as ZodTypeAny[] | Map<unknown, ZodTypeAny>;
      return options instanceof Map ? [...options.values()] : options;
    }
    case 'ZodTuple':
      return def.items as ZodTypeAny[];
    case 'ZodIntersection':
      return [def.left as ZodTypeAny, def.right as ZodTypeAny];
    case 'ZodEffects':
      return [def.schema as ZodTypeAny];
    case 'ZodPipeline':
      return [def.in as ZodTypeAny, def.out as ZodTypeAny];
    case 'ZodBranded':
      return [def.type as ZodTypeAny];
    default:
      return [];
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const plainEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9][a-z0-9_+-]{0,15}$/),
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.constantFrom('test', 'example', 'com', 'org', 'music'),
    fc.boolean(),
  )
  .map(([local, domain, tld, upper]) => {
    const address = `${local}@${domain}.${tld}`;
    return upper ? address.toUpperCase() : address;
  });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = fc
  .date({ min: new Date('1890-01-01T00:00:00.000Z'), max: new Date('2030-12-31T00:00:00.000Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

const openApiFormat = (schema: ZodTypeAny) =>
  (schema as ZodTypeAny & { metaOpenApi?: { format?: unknown } }).metaOpenApi?.format;

/**
 * When a refinement over an object fails on one field, try giving that field the value of another
 * field of the same type (the usual case: a confirmation that must equal its original).
 */
function repair(schema: ZodTypeAny, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success || !isObject(value)) return value;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (issue.path.length !== 1 || typeof field !== 'string') continue;
    for (const [other, otherValue] of Object.entries(value)) {
      if (other === field || typeof otherValue !== typeof value[field]) continue;
      const candidate = { ...value, [field]: otherValue };
      if (schema.safeParse(candidate).success) return candidate;
    }
  }
  return value;
}

function overridesFor(root: ZodTypeAny): ReturnType<typeof ZodFastCheck> {
  let zfc = ZodFastCheck();
  const seen = new Set<ZodTypeAny>();
  const visit = (schema: ZodTypeAny) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    childrenOf(schema).forEach(visit);
    const def = defOf(schema);
    if (isBinary(schema)) {
      zfc = zfc.override(schema, fileArbitrary);
    } else if (def.typeName === 'ZodString') {
      const checks = def.checks as Check[];
      const valid = (value: string) => schema.safeParse(value).success;
      const regex = checks.find((check) => check.kind === 'regex')?.regex;
      if (checks.some((check) => check.kind === 'email')) {
        zfc = zfc.override(schema, plainEmail.filter(valid));
      } else if (regex?.source === ISO_DATE.source) {
        // real calendar dates (most random digit strings are not), around the range profiles accept
        zfc = zfc.override(schema, isoDate.filter(valid));
      } else if (regex) {
        zfc = zfc.override(schema, fc.stringMatching(regex).filter(valid));
      }
    } else if (
      def.typeName === 'ZodEffects' &&
      (def.effect as { type: string }).type === 'refinement' &&
      openApiFormat(schema) === 'uri'
    ) {
      // a refined URL: random text would almost never pass, and filtering it would never end
      zfc = zfc.override(
        schema,
        fc.webUrl({ validSchemes: ['http', 'https'] }).filter((value) => schema.safeParse(value).success),
      );
    } else if (def.typeName === 'ZodEffects' && (def.effect as { type: string }).type === 'refinement') {
      const inner = def.schema as ZodTypeAny;
      // Overrides of the children are already registered: resolve them lazily.
      zfc = zfc.override(schema, (current) =>
        current
          .inputOf(inner)
          .map((value) => repair(schema, value))
          .filter((value) => schema.safeParse(value).success),
      );
    }
  };
  visit(root);
  return zfc;
}

/** A quarter of a second of silence as a 16-bit mono 8 kHz WAV file: the smallest real audio. */
export function tinyWav(): Uint8Array<ArrayBuffer> {
  const samples = 2000;
  const data = samples * 2;
  const buffer = Buffer.alloc(44 + data);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + data, 4);
  buffer.write('WAVEfmt ', 8, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(8000, 24);
  buffer.writeUInt32LE(16_000, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(data, 40);
  return Uint8Array.from(buffer);
}

/** Files for binary fields (OpenAPI format binary): mostly real audio, sometimes bytes that are not. */
const fileArbitrary: fc.Arbitrary<File> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null).map(() => new File([tinyWav()], 'silence.wav', { type: 'audio/wav' })) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 64 })
      .map((bytes) => new File([Uint8Array.from(bytes)], 'noise.bin', { type: 'application/octet-stream' })),
  },
);

const isBinary = (schema: ZodTypeAny) =>
  (schema as { metaOpenApi?: { format?: unknown } }).metaOpenApi?.format === 'binary';

const cache = new WeakMap<ZodTypeAny, fc.Arbitrary<unknown>>();

/** An arbitrary of values the schema accepts as input. */
export function validInput(schema: ZodTypeAny): fc.Arbitrary<unknown> {
  let arbitrary = cache.get(schema);
  if (!arbitrary) {
    arbitrary = overridesFor(schema)
      .inputOf(schema)
      .filter((value) => schema.safeParse(value).success);
    cache.set(schema, arbitrary);
  }
  return arbitrary;
}

/** Header values must survive fetch: printable ASCII without surrounding whitespace. */
const headerSafe = (value: unknown) =>
  value === undefined || (typeof value === 'string' && /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$|^$/.test(value));

/** A path value that keeps the path matching the route: non-empty and not a dot segment. */
export const pathSafe = (value: string) => value.length > 0 && value !== '.' && value !== '..';

export interface RequestInput {
  params: Record<string, string>;
  query: Record<string, unknown> | undefined;
  headers: Record<string, string | undefined> | undefined;
  body: unknown;
}

/** A valid request for the route: path parameters, query, headers and body, each from its schema. */
export function validRequest(route: AppRoute): fc.Arbitrary<RequestInput> {
  const names = pathParamNames(route);
  const paramsSchema = pathParamsSchema(route);
  const params: fc.Arbitrary<Record<string, string>> = paramsSchema
    ? (validInput(paramsSchema) as fc.Arbitrary<Record<string, unknown>>).map((value) =>
        Object.fromEntries(names.map((name) => [name, String(value[name] ?? '')])),
      )
    : fc.record(Object.fromEntries(names.map((name) => [name, fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/)])));
  const query = querySchema(route);
  const headers = headersSchema(route);
  const body = bodySchema(route);
  return fc.record({
    params: params.filter((value) => Object.values(value).every(pathSafe)),
    query: query ? (validInput(query) as fc.Arbitrary<Record<string, unknown> | undefined>) : fc.constant(undefined),
    headers: headers
      ? (validInput(headers) as fc.Arbitrary<Record<string, string | undefined> | undefined>).filter(
          (value) => value === undefined || Object.values(value).every(headerSafe),
        )
      : fc.constant(undefined),
    // A key present with the value undefined is dropped: JSON drops it anyway, and a multipart
    // encoder would send the text "undefined".
    body: body
      ? validInput(body).map((value) =>
          isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) : value,
        )
      : fc.constant(undefined),
  });
}

/** One deterministic valid request. */
export function sampleRequest(route: AppRoute, seed: number): RequestInput {
  const [sample] = fc.sample(validRequest(route), { numRuns: 1, seed });
  return sample!;
}

/** The shape of an object schema, looking through optional, nullable, default and effects wrappers. */
function objectShape(schema: ZodTypeAny | undefined): Record<string, ZodTypeAny> {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth++) {
    const def = defOf(current);
    if (def.typeName === 'ZodObject') return (current as unknown as { shape: Record<string, ZodTypeAny> }).shape;
    current = (def.innerType ?? def.schema ?? def.in) as ZodTypeAny | undefined;
  }
  return {};
}

/** The keys of an object schema. */
export const objectKeys = (schema: ZodTypeAny | undefined): string[] => Object.keys(objectShape(schema));

/** The keys an object schema requires. */
export const requiredKeys = (schema: ZodTypeAny | undefined): string[] =>
  Object.entries(objectShape(schema))
    .filter(([, field]) => !field.isOptional())
    .map(([key]) => key);

/** Literal values a schema allows besides its general case (e.g. `me` in uuid | 'me'). */
export function literalsOf(schema: ZodTypeAny | undefined): string[] {
  if (!schema) return [];
  const def = defOf(schema);
  if (def.typeName === 'ZodLiteral') return typeof def.value === 'string' ? [def.value] : [];
  if (def.typeName === 'ZodEnum') return [...(def.values as string[])];
  return childrenOf(schema).flatMap(literalsOf);
}

/** For each path parameter, a literal its schema allows, if any: such values (`me`) reach the caller's own resources. */
export function literalPathParams(route: AppRoute): Record<string, string> {
  const schema = pathParamsSchema(route);
  const shape =
    schema && defOf(schema).typeName === 'ZodObject'
      ? (schema as unknown as { shape: Record<string, ZodTypeAny> }).shape
      : {};
  return Object.fromEntries(
    Object.entries(shape)
      .map(([name, param]) => [name, literalsOf(param)[0]] as const)
      .filter((entry): entry is readonly [string, string] => entry[1] !== undefined),
  );
}
