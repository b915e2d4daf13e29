import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import { isZodType } from '@ts-rest/core';
import { ERROR_CODES, type ErrorCode } from '../common/error-codes.js';
import { requiredScope, routeMeta } from '../common/route-meta.js';
import { AREA_DESCRIPTIONS, contract } from '../riff.contract.js';
import { noteAmbiguousPaths } from './ambiguous-paths.js';
import { COMPONENT_EXAMPLES } from './area-examples.js';
import { headerComponentName, headerComponents, responseHeaders } from './response-headers.js';
import { referenceCopies, shapeForGenerators } from './schema-shapes.js';

export const API_VERSION = '1.2.0';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type OpenApiOperation = Record<string, unknown> & { description?: string; responses: Record<string, JsonObject> };

const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '206': 'Partial content',
  '302': 'Redirect to a presigned URL',
  '304': 'Not modified',
  '400': 'Bad request: validation failed, or a malformed id, body or token',
  '401': 'Missing, invalid or expired credentials',
  '403': 'Authenticated but not allowed',
  '404': 'Not found',
  '409': 'Conflict with an existing resource',
  '413': 'Payload too large',
  '415': 'Unsupported media type',
  '416': 'Range not satisfiable',
  '429': 'Too many requests; retry after the Retry-After header',
  '500': 'Internal error; no internals are disclosed',
  '503': 'Service unavailable',
};

function securityFor(route: AppRoute): JsonObject[] {
  const meta = routeMeta(route);
  const apiKey = meta.apiKey ? [{ apiKeyAuth: [] }] : [];
  const refresh = meta.refreshCookie ? [{ refreshCookie: [] }] : [];
  switch (meta.auth) {
    case 'public':
      return refresh.length > 0 ? [{}, ...refresh] : [];
    case 'optional':
      return [{}, { bearerAuth: [] }, ...apiKey];
    case 'user':
      return [{ bearerAuth: [] }, ...apiKey];
    case 'stream':
      return [{}, { bearerAuth: [] }, { streamToken: [] }, ...apiKey];
  }
}

function authenticationNote(route: AppRoute): string {
  const meta = routeMeta(route);
  const key = meta.apiKey
    ? ` A developer API key with scope \`${requiredScope(route.method)}\` (or admin) may be used instead.`
    : '';
  switch (meta.auth) {
    case 'public':
      return 'Authentication: none.';
    case 'optional':
      return `Authentication: optional bearer access token.${key}`;
    case 'user':
      if (meta.staff === 'admin') return 'Authentication: bearer access token of an admin (others: 403).';
      if (meta.staff === 'staff')
        return 'Authentication: bearer access token of a moderator or an admin (others: 403).';
      return `Authentication: bearer access token.${key}`;
    case 'stream':
      return `Authentication: optional; a bearer access token or a stream token (needed for private tracks).${key}`;
  }
}

function bodyIsRequired(route: AppRoute): boolean {
  if (route.method === 'GET' || !('body' in route)) return false;
  // multipart bodies are parsed by the route itself (streamed), so the schema is optional for ts-rest
  if (route.contentType === 'multipart/form-data') return true;
  return isZodType(route.body) ? !route.body.isOptional() : false;
}

/**
 * Non-JSON replies (c.otherResponse) become binary content of their media type, and of those in
 * the route's `metadata.alsoContentTypes` when it answers in more than one (a query picks which).
 */
function binaryResponses(op: OpenApiOperation, route: AppRoute): void {
  const also = (route.metadata as { alsoContentTypes?: readonly string[] } | undefined)?.alsoContentTypes ?? [];
  for (const [status, response] of Object.entries(route.responses)) {
    const other = response as { contentType?: string };
    const target = op.responses[status];
    if (target && typeof other.contentType === 'string' && !target['content']) {
      const types = [other.contentType, ...also];
      target['content'] = Object.fromEntries(
        types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      );
    } else if (target?.['content'] && also.length > 0 && Number(status) < 300) {
      // a JSON reply that also comes as a file (content negotiation): the file types beside the JSON
      const content = target['content'] as Record<string, unknown>;
      for (const type of also) content[type] = { schema: { type: 'string', format: 'binary' } };
    }
  }
}

const ERROR_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'The request is not valid',
  UNAUTHENTICATED: 'Authentication required',
  FORBIDDEN: 'You are not allowed to do this',
  NOT_FOUND: 'Not found',
  CONFLICT: 'This conflicts with an existing resource',
  PAYLOAD_TOO_LARGE: 'The body is larger than allowed',
  UNSUPPORTED_MEDIA_TYPE: 'Send application/json',
  RANGE_NOT_SATISFIABLE: 'The range starts past the end of the file (8563200 bytes)',
  RATE_LIMITED: 'Too many requests',
  INTERNAL: 'Internal error',
  UNAVAILABLE: 'The service is starting or a dependency is unreachable; retry shortly',
};

/** An error reply as the server sends it for this status: the first stable code declared with it. */
function errorExample(status: number): JsonObject | undefined {
  const code = (Object.keys(ERROR_CODES) as ErrorCode[]).find((candidate) => ERROR_CODES[candidate] === status);
  if (!code) return undefined;
  const details: JsonObject =
    code === 'VALIDATION_FAILED'
      ? { details: [{ field: 'email', message: 'must be an email address', value: 'mira@' }] }
      : {};
  const error: JsonObject = {
    code,
    message: ERROR_MESSAGES[code] ?? code,
    ...details,
    request_id: '3f9a7c1e-5b2d-4e8f-a6c0-1d9b7e5f3a2c',
  };
  return { success: false, error };
}

function describeResponses(op: OpenApiOperation, route: AppRoute, operationId: string): void {
  const meta = routeMeta(route);
  for (const [status, response] of Object.entries(op.responses)) {
    if (response['description'] === status) response['description'] = RESPONSE_DESCRIPTIONS[status] ?? status;
    const json = (response['content'] as Record<string, JsonObject> | undefined)?.['application/json'];
    const schema = json?.['schema'] as { $ref?: string } | undefined;
    const example = schema?.$ref === '#/components/schemas/ErrorEnvelope' ? errorExample(Number(status)) : undefined;
    if (json && example) json['example'] = example;
    const headers = responseHeaders(operationId, status, meta);
    response['headers'] = Object.fromEntries(
      headers.map((name) => [name, { $ref: `#/components/headers/${headerComponentName(name)}` }]),
    );
  }
}

function mapOperation(operation: Record<string, unknown>, route: AppRoute): Record<string, unknown> {
  const op = operation as OpenApiOperation;
  describeResponses(op, route, String(op['operationId']));
  binaryResponses(op, route);
  const requestBody = op['requestBody'] as JsonObject | undefined;
  if (requestBody) {
    requestBody['required'] = bodyIsRequired(route);
    requestBody['description'] = route.method === 'GET' ? '' : 'Request body';
  }
  const parameters = op['parameters'] as
    | { schema?: JsonObject; description?: string; deprecated?: boolean }[]
    | undefined;
  if (parameters && parameters.length === 0) delete op['parameters'];
  for (const parameter of parameters ?? []) {
    // A parameter is text on the wire and never null (a coerced number would otherwise read as nullable).
    delete parameter.schema?.['nullable'];
    // a parameter whose schema is marked deprecated (withOpenApi) is itself deprecated, for generators
    if (parameter.schema?.['deprecated'] === true || parameter.description?.startsWith('Deprecated'))
      parameter.deprecated = true;
  }
  const description = [route.description, authenticationNote(route)].filter(Boolean).join('\n\n');
  return { ...op, description, security: securityFor(route) };
}

const COMPOSED = ['type', '$ref', 'allOf', 'oneOf', 'anyOf'];
const TIMESTAMP_EXAMPLE = '2026-11-21T10:00:00.000Z';

/**
 * Repairs the generator needs for OpenAPI 3.0 and its validators. A date-time without an example
 * would be mocked without milliseconds, which the contract's timestamps (RFC 3339 with
 * milliseconds) refuse, so it gets one. A nullable reference stays `allOf: [$ref]` beside
 * `nullable: true`, the form generators read as "that type or null" (an inlined copy would be one
 * more type per place; tests/support/prism.ts inlines them for Prism alone, which reads `nullable`
 * only beside a `type`).
 */
function repairSchemas(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => repairSchemas(item));
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const repaired = Object.fromEntries(Object.entries(record).map(([key, child]) => [key, repairSchemas(child)]));
  if (repaired['format'] === 'date-time' && repaired['example'] === undefined) repaired['example'] = TIMESTAMP_EXAMPLE;
  // In 3.0, `nullable` does not widen an enum: null is allowed only when the enum lists it.
  if (repaired['nullable'] === true && Array.isArray(repaired['enum']) && !repaired['enum'].includes(null))
    repaired['enum'] = [...repaired['enum'], null];
  requireBinaryProperties(repaired);
  return repaired;
}

/**
 * A file part of a multipart body (format binary; z.any() in the contract, since the route streams
 * it) is required and never null, so generators type it as a file, not `string | null`.
 */
function requireBinaryProperties(schema: Record<string, unknown>): void {
  const properties = schema['properties'] as Record<string, Record<string, unknown>> | undefined;
  if (!properties) return;
  const files = Object.keys(properties).filter((name) => properties[name]!['format'] === 'binary');
  if (files.length === 0) return;
  for (const name of files) delete properties[name]!['nullable'];
  const required = (schema['required'] as string[] | undefined) ?? [];
  schema['required'] = [...required, ...files.filter((name) => !required.includes(name))];
}

/**
 * Reply schemas are closed (`additionalProperties: false` on every object with properties that
 * says nothing of others), so a field leaking into a reply breaks the document instead of passing
 * every check. Request schemas stay open: the server ignores what it does not know. A member of
 * allOf stays open (it sees only its own properties).
 */
function closeReplySchemas(document: Record<string, unknown>): void {
  const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
  const closed = new Set<string>();
  const close = (node: unknown, inAllOf: boolean): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const schema = node as Record<string, unknown>;
    const ref = schema['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!closed.has(name)) {
        closed.add(name);
        close(schemas[name], false);
      }
      return;
    }
    const properties = schema['properties'] as Record<string, unknown> | undefined;
    if (properties && typeof properties === 'object') {
      if (!inAllOf && schema['additionalProperties'] === undefined) schema['additionalProperties'] = false;
      for (const child of Object.values(properties)) close(child, false);
    }
    for (const key of ['items', 'additionalProperties', 'not']) close(schema[key], false);
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const members = schema[key];
      if (Array.isArray(members)) for (const member of members) close(member, key === 'allOf');
    }
  };
  for (const item of Object.values(document['paths'] as Record<string, Record<string, OpenApiOperation>>)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses)) {
        for (const media of Object.values((response['content'] ?? {}) as Record<string, JsonObject>))
          close(media['schema'], false);
      }
    }
  }
}

/**
 * Every named schema gets its example (its area's <area>.examples.ts; an envelope's is its payload's in the
 * envelope); schemas no longer referenced are dropped.
 */
function finishComponents(document: Record<string, unknown>): void {
  const components = document['components'] as { schemas: Record<string, Record<string, unknown>> };
  for (const [name, schema] of Object.entries(components.schemas)) {
    if (COMPONENT_EXAMPLES[name] !== undefined) schema['example'] = structuredClone(COMPONENT_EXAMPLES[name]) as Json;
  }
  for (const schema of Object.values(components.schemas)) {
    const payload = (schema['properties'] as { data?: { $ref?: string } } | undefined)?.data?.$ref?.slice(
      '#/components/schemas/'.length,
    );
    const example = payload === undefined ? undefined : components.schemas[payload]?.['example'];
    if (schema['example'] === undefined && example !== undefined)
      schema['example'] = { success: true, data: structuredClone(example) as Json };
  }
  // A copy replaced by its reference (schema-shapes.ts) can leave a component unused.
  let dropped = true;
  while (dropped) {
    dropped = false;
    const text =
      JSON.stringify({ ...document, components: { ...components, schemas: {} } }) + JSON.stringify(components.schemas);
    for (const name of Object.keys(components.schemas)) {
      if (!text.includes(`"#/components/schemas/${name}"`)) {
        delete components.schemas[name];
        dropped = true;
      }
    }
  }
}

/**
 * Sorts object keys recursively so the committed document diffs small. OpenAPI 3.0 wants a type
 * beside `nullable`: an untyped value (z.unknown()) loses `nullable`.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const untyped = record['nullable'] === true && !COMPOSED.some((key) => key in record);
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined && !(untyped && key === 'nullable'))
        .map((key) => [key, sortKeys(record[key])]),
    );
  }
  return value;
}

const camel = (id: string) => id.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

/** Builds openapi.json from the contract: OpenAPI 3.0 with servers, tags, security and descriptions. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'Riff API',
        version: API_VERSION,
        description:
          'Riff is the open HTTP/JSON backend of a music platform. This version serves accounts (registration with email ' +
          'verification, login with refresh rotation and optional TOTP 2FA, password reset, stream and chat tokens), user ' +
          'profiles with follows, blocks, preferences, data export and account deletion, your audit log, tracks ' +
          '(uploads in one request or resumable chunks, metadata, lyrics, quota, streaming with byte ranges, download), and the play ' +
          'queue with shared listening sessions (their live channel is a WebSocket at /api/v1/ws, described under the queue ' +
          'tag).\n\n' +
          'Every path is under /api/v1 except the system operations. Most successful replies are enveloped as ' +
          '`{"success":true,"data":…}` (register, login, refresh, stream-token, export and system replies are the object itself; each ' +
          'operation\'s schema shows which); every failure uses `{"success":false,"error":{"code","message","details"?,"request_id"}}`. ' +
          'Timestamps are RFC 3339 in UTC with milliseconds; identifiers are UUIDs.',
        // who answers for the API; no address is published beyond the server that serves it
        contact: { name: 'Riff maintainers' },
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      // Relative first: a generated client's default base URL is the origin that serves the document, not a developer's machine.
      servers: [
        { url: '/', description: 'The server that serves this document' },
        { url: 'http://127.0.0.1:8080', description: 'Local server (npm start)' },
      ],
      tags: Object.entries(AREA_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token from POST /api/v1/auth/login, valid 15 minutes.',
          },
          apiKeyAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description:
              'Developer API key <prefix>_<random>. Scopes: read (GET, HEAD), write (POST, PUT, PATCH, DELETE), admin (all).',
          },
          refreshCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'refresh_token',
            description: 'HttpOnly refresh cookie set by login; the request must carry an allowed Origin.',
          },
          streamToken: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'Stream token from POST /api/v1/auth/stream-token, valid 300 seconds.',
          },
        },
      },
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => {
        const mapped = mapOperation(operation as Record<string, unknown>, route);
        return { ...mapped, operationId: camel(String(mapped['operationId'])) } as typeof operation;
      },
    },
  );
  const repaired = repairSchemas({ ...document, openapi: '3.0.3' }) as Record<string, unknown>;
  (repaired['components'] as Record<string, unknown>)['headers'] = headerComponents();
  referenceCopies(repaired as JsonObject);
  shapeForGenerators(repaired as JsonObject);
  finishComponents(repaired);
  closeReplySchemas(repaired);
  noteAmbiguousPaths(repaired['paths'] as Record<string, Record<string, OpenApiOperation>>);
  return sortKeys(repaired) as Record<string, unknown>;
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
