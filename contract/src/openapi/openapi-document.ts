import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import { isZodType } from '@ts-rest/core';
import { requiredScope, routeMeta } from '../common/route-meta.js';
import { AREA_DESCRIPTIONS, contract } from '../riff.contract.js';

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
  const key = meta.apiKey ? ` A developer API key with scope \`${requiredScope(route.method)}\` (or admin) may be used instead.` : '';
  switch (meta.auth) {
    case 'public':
      return 'Authentication: none.';
    case 'optional':
      return `Authentication: optional bearer access token.${key}`;
    case 'user':
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

/** Non-JSON replies (c.otherResponse) become binary content of their media type. */
function binaryResponses(op: OpenApiOperation, route: AppRoute): void {
  for (const [status, response] of Object.entries(route.responses)) {
    const other = response as { contentType?: string };
    const target = op.responses[status];
    if (target && typeof other.contentType === 'string' && !target['content']) {
      target['content'] = { [other.contentType]: { schema: { type: 'string', format: 'binary' } } };
    }
  }
}

function mapOperation(operation: Record<string, unknown>, route: AppRoute): Record<string, unknown> {
  const op = operation as OpenApiOperation;
  for (const [status, response] of Object.entries(op.responses)) {
    if (response['description'] === status) response['description'] = RESPONSE_DESCRIPTIONS[status] ?? status;
  }
  binaryResponses(op, route);
  const requestBody = op['requestBody'] as JsonObject | undefined;
  if (requestBody) {
    requestBody['required'] = bodyIsRequired(route);
    requestBody['description'] = route.method === 'GET' ? '' : 'Request body';
  }
  const parameters = op['parameters'] as JsonObject[] | undefined;
  if (parameters && parameters.length === 0) delete op['parameters'];
  // a parameter whose schema is marked deprecated (withOpenApi) is itself deprecated, for generators
  for (const parameter of parameters ?? []) if ((parameter['schema'] as JsonObject | undefined)?.['deprecated'] === true) parameter['deprecated'] = true;
  const description = [route.description, authenticationNote(route)].filter(Boolean).join('\n\n');
  return { ...op, description, security: securityFor(route) };
}

const COMPOSED = ['type', '$ref', 'allOf', 'oneOf', 'anyOf'];
const TIMESTAMP_EXAMPLE = '2026-11-21T10:00:00.000Z';

/**
 * Two repairs the generator needs for OpenAPI 3.0 and its validators:
 * - a nullable reference (`allOf: [$ref]` beside `nullable`) still refuses null in 3.0, so the
 *   referenced schema is inlined with `nullable: true`;
 * - a date-time without an example would be mocked without milliseconds, which the contract's
 *   timestamps (RFC 3339 with milliseconds) refuse, so it gets one.
 */
function repairSchemas(value: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => repairSchemas(item, components));
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const allOf = record['allOf'];
  if (record['nullable'] === true && Array.isArray(allOf) && allOf.length === 1) {
    const ref = (allOf[0] as { $ref?: string }).$ref;
    const target = ref?.startsWith('#/components/schemas/') ? components[ref.slice('#/components/schemas/'.length)] : undefined;
    if (target && typeof target === 'object') {
      const { title: _title, ...inlined } = structuredClone(target) as Record<string, unknown>;
      return repairSchemas({ ...inlined, nullable: true }, components);
    }
  }
  const repaired = Object.fromEntries(Object.entries(record).map(([key, child]) => [key, repairSchemas(child, components)]));
  if (repaired['format'] === 'date-time' && repaired['example'] === undefined) repaired['example'] = TIMESTAMP_EXAMPLE;
  return repaired;
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
          'Riff is the open HTTP/JSON backend of a music platform: accounts with email verification and 2FA, ' +
          'profiles and follows, track uploads and streaming, playlists, a marketplace, webhooks and more.\n\n' +
          'Every path is under /api/v1 except the system operations. Successful replies marked (env) use ' +
          '`{"success":true,"data":…}`; every failure uses `{"success":false,"error":{"code","message","details"?,"request_id"}}`. ' +
          'Timestamps are RFC 3339 in UTC with milliseconds; identifiers are UUIDs.',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [{ url: 'http://127.0.0.1:8080', description: 'Local server (npm start)' }],
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
            description: 'Developer API key <prefix>_<random>. Scopes: read (GET, HEAD), write (POST, PUT, PATCH, DELETE), admin (all).',
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
  const components = (document.components?.schemas ?? {}) as Record<string, unknown>;
  return sortKeys(repairSchemas({ ...document, openapi: '3.0.3' }, components)) as Record<string, unknown>;
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
