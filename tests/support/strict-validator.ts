/**
 * A strict check of replies against an OpenAPI 3.0 document (issue 17), stricter than Prism:
 * the status must be declared for the operation, the content type must be one the status
 * declares, a JSON body must match its schema by Ajv 8 with every object closed (a property the
 * schema does not name is an error, whether or not the document says additionalProperties), and
 * the declared response headers must be present when `required` and match their schemas.
 *
 * OpenAPI 3.0 schemas become JSON Schema on the way in: `nullable: true` adds the type null (and
 * nothing else: by OpenAPI 3.0.3, a nullable enum admits null only when its enum lists null), a
 * `$ref` to components resolves to the one compiled copy of components.schemas, and keywords of
 * OpenAPI alone (example, discriminator, xml, externalDocs) are dropped. Validators are compiled
 * once per operation, status and media type, when first needed.
 */
import { Ajv, type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv';
import * as formatsModule from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module's `default`
const addFormats = ((formatsModule as unknown as { default: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

type JsonObject = Record<string, unknown>;

export interface StrictViolation {
  /** operationId of the operation the reply answers. */
  operationId: string;
  status: number;
  /** JSON pointer of what is wrong: into the body (`/data/gender`), or `/headers/<name>`, `/status`, `/content-type`. */
  pointer: string;
  message: string;
}

export interface StrictReply {
  method: string;
  /** The request's path and query, e.g. /api/v1/users/me?x=1. */
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface StrictValidator {
  /**
   * The violations of this reply ([] when it conforms), or undefined when the document has no
   * operation for the request (a path or method outside it: nothing to hold the reply to).
   */
  check(reply: StrictReply): StrictViolation[] | undefined;
}

const COMPONENTS_ID = 'https://riff.invalid/openapi.json';
const SCHEMA_REF = '#/components/schemas/';
const OPENAPI_ONLY = new Set(['example', 'nullable', 'discriminator', 'xml', 'externalDocs']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'];
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not']);
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An OpenAPI 3.0 schema as JSON Schema (draft 7), its objects closed, its refs to the compiled components. */
export function toJsonSchema(schema: unknown, options: { closeObjects?: boolean } = {}): unknown {
  const close = options.closeObjects ?? true;
  const convert = (node: unknown, inAllOf: boolean): unknown => {
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (OPENAPI_ONLY.has(key)) continue;
      if (key === '$ref' && typeof value === 'string')
        out[key] = value.startsWith(SCHEMA_REF)
          ? `${COMPONENTS_ID}#/definitions/${value.slice(SCHEMA_REF.length)}`
          : value;
      else if (SCHEMA_MAPS.has(key) && isObject(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, false)]));
      else if (SCHEMA_LISTS.has(key) && Array.isArray(value))
        out[key] = value.map((child) => convert(child, key === 'allOf'));
      else if (SCHEMA_VALUES.has(key) && isObject(value)) out[key] = convert(value, false);
      else out[key] = value;
    }
    // a member of allOf sees only its own properties: closing it would refuse its siblings'
    if (close && !inAllOf && isObject(out['properties']) && out['additionalProperties'] === undefined)
      out['additionalProperties'] = false;
    if (node['nullable'] === true) {
      // a nullable reference (allOf: [$ref] beside nullable and type): null, or what the reference allows
      if (COMPOSITIONS.some((key) => Array.isArray(out[key]))) return { anyOf: [{ type: 'null' }, out] };
      if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
      else if (out['type'] === undefined) return { anyOf: [{ type: 'null' }, out] };
    }
    return out;
  };
  return convert(schema, false);
}

interface Route {
  template: string;
  segments: string[];
  pattern: RegExp;
  operations: Record<string, JsonObject>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Literal segments before parameters, position by position: /users/by-username/{x} before /users/{id}/follow. */
function literalFirst(a: Route, b: Route): number {
  const length = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < length; i++) {
    const aParam = a.segments[i]!.includes('{');
    const bParam = b.segments[i]!.includes('{');
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
}

function routesOf(document: JsonObject): Route[] {
  const paths = (document['paths'] ?? {}) as Record<string, JsonObject>;
  return Object.entries(paths)
    .map(([template, item]) => {
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('');
      const operations = Object.fromEntries(
        METHODS.filter((method) => isObject(item[method])).map((method) => [method, item[method] as JsonObject]),
      );
      return { template, segments: template.split('/'), pattern: new RegExp(`^${source}$`), operations };
    })
    .sort(literalFirst);
}

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → application/json. */
const mediaType = (value: string | null) => (value ?? '').split(';', 1)[0]!.trim().toLowerCase();

function matchesMediaRange(range: string, type: string): boolean {
  const [rangeType, rangeSub] = range.toLowerCase().split('/');
  const [typeType, typeSub] = type.split('/');
  return (rangeType === '*' || rangeType === typeType) && (rangeSub === '*' || rangeSub === typeSub);
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** Where an Ajv error is, as a JSON pointer into the body: the missing or extra property included. */
function pointerOf(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string; missingProperty?: string };
  const name = params.additionalProperty ?? params.missingProperty;
  const escaped = name === undefined ? '' : `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return `${error.instancePath}${escaped}` || '/';
}

/** Where in the document the failing keyword is, as the document names it. */
const schemaPathOf = (error: ErrorObject) => error.schemaPath.replace(`${COMPONENTS_ID}#/definitions/`, SCHEMA_REF);

function describeError(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string; allowedValues?: unknown[] };
  if (params.additionalProperty !== undefined)
    return `has a property the document does not declare (${params.additionalProperty}) [${schemaPathOf(error)}]`;
  const allowed = params.allowedValues ? ` ${JSON.stringify(params.allowedValues)}` : '';
  return `${error.message ?? error.keyword}${allowed} [${schemaPathOf(error)}]`;
}

/** A header's text as the type its schema names, so `integer` headers are checked as numbers. */
function headerValue(text: string, schema: JsonObject): unknown {
  const type = schema['type'];
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** A strict validator of replies for this OpenAPI 3.0 document (parsed JSON). */
export function createStrictValidator(document: JsonObject): StrictValidator {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    strictRequired: false,
    validateFormats: true,
  });
  addFormats(ajv);
  const components = isObject(document['components']) ? document['components'] : {};
  // components.schemas is a map of schemas, not a schema: converted entry by entry
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  ajv.addSchema({
    $id: COMPONENTS_ID,
    definitions: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema)])),
  } as AnySchemaObject);
  const headerComponents = isObject(components['headers']) ? (components['headers'] as Record<string, JsonObject>) : {};
  const routes = routesOf(document);
  const compiled = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: unknown) => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema) as AnySchemaObject);
      compiled.set(key, validate);
    }
    return validate;
  };
  const resolveHeader = (header: JsonObject): JsonObject => {
    const ref = header['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/components/headers/'))
      return headerComponents[ref.slice('#/components/headers/'.length)] ?? {};
    return header;
  };

  function find(method: string, pathname: string): JsonObject | undefined {
    // HEAD is answered as GET without the body (Express does so for every GET route)
    const wanted = method.toLowerCase();
    for (const route of routes) {
      if (!route.pattern.test(pathname)) continue;
      const operation = route.operations[wanted] ?? (wanted === 'head' ? route.operations['get'] : undefined);
      if (operation) return operation;
    }
    return undefined;
  }

  return {
    check(reply) {
      const pathname = reply.url.split(/[?#]/, 1)[0]!;
      const operation = find(reply.method, pathname);
      if (!operation) return undefined;
      const operationId = String(operation['operationId'] ?? `${reply.method} ${pathname}`);
      const status = reply.status;
      const violations: StrictViolation[] = [];
      const fail = (pointer: string, message: string) => violations.push({ operationId, status, pointer, message });
      const responses = (operation['responses'] ?? {}) as Record<string, JsonObject>;
      const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find(
        (key) => responses[key] !== undefined,
      );
      if (!statusKey) {
        fail('/status', `status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`);
        return violations;
      }
      const response = responses[statusKey]!;

      for (const [name, declared] of Object.entries((response['headers'] ?? {}) as Record<string, JsonObject>)) {
        const header = resolveHeader(declared);
        const value = reply.headers.get(name);
        if (value === null) {
          if (header['required'] === true) fail(`/headers/${name}`, `the required header ${name} is missing`);
          continue;
        }
        if (!isObject(header['schema'])) continue;
        const validate = compile(`header ${JSON.stringify(declared)}`, header['schema']);
        if (!validate(headerValue(value, header['schema']))) {
          for (const error of validate.errors ?? [])
            fail(`/headers/${name}`, `${JSON.stringify(value)} ${describeError(error)}`);
        }
      }

      const content = (response['content'] ?? {}) as Record<string, JsonObject>;
      const declaredTypes = Object.keys(content);
      const bodyless = reply.method.toUpperCase() === 'HEAD' || status === 204 || status === 304;
      const type = mediaType(reply.headers.get('content-type'));
      if (declaredTypes.length === 0) {
        if (!bodyless && reply.body.length > 0)
          fail(
            '/content-type',
            `a ${reply.body.length}-byte ${type || 'untyped'} body where the document declares none`,
          );
        return violations;
      }
      if (bodyless && reply.body.length === 0 && !type) return violations;
      const matched = declaredTypes.find((range) => matchesMediaRange(range, type));
      if (!matched) {
        fail(
          '/content-type',
          `content type ${type || '(none)'} is not declared (declared: ${declaredTypes.join(', ')})`,
        );
        return violations;
      }
      if (bodyless || !isJson(type)) return violations;
      let body: unknown;
      try {
        body = JSON.parse(reply.body.toString('utf8'));
      } catch {
        fail('/', `the ${type} body is not JSON: ${JSON.stringify(reply.body.toString('utf8').slice(0, 200))}`);
        return violations;
      }
      const schema = content[matched]!['schema'];
      if (!isObject(schema)) return violations;
      const validate = compile(`${operationId} ${statusKey} ${matched}`, schema);
      if (!validate(body)) for (const error of validate.errors ?? []) fail(pointerOf(error), describeError(error));
      return violations;
    },
  };
}

/** One line per violation, for a failure message. */
export function describeStrictViolations(method: string, url: string, violations: StrictViolation[]): string {
  return violations
    .map((v) => `${method} ${url} → ${v.operationId} ${v.status}: ${v.pointer}: ${v.message}`)
    .join('\n');
}
