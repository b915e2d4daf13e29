/**
 * openapi.json as code generators read it (openapi-zod-client, orval, openapi-typescript, hey-api,
 * and the Java, C# and Kotlin generators): patterns they can write into a regex literal, 64-bit
 * integers where 32 bits overflow, one named type per shape (references, named envelopes), a base
 * URL that is not a developer's machine, constrained path parameters, and examples that example
 * validators (Redocly, Spectral) read as data. Each check walks the whole committed document.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT } from '../support/prism.js';

type Node = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema: Node;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: Node }> }>;
}
const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as {
  info: { contact?: Record<string, string> };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Node>; headers: Record<string, { schema: Node }> };
};
const schemas = document.components.schemas;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every schema node of the document (not inside examples), with where it is and the property it describes. */
function schemaNodes(): { at: string; schema: Node; property?: string }[] {
  const found: { at: string; schema: Node; property?: string }[] = [];
  const walk = (node: unknown, at: string, property?: string): void => {
    if (Array.isArray(node)) return node.forEach((child, index) => walk(child, `${at}/${index}`, property));
    if (!isNode(node)) return;
    found.push({ at, schema: node, property });
    for (const [key, child] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') continue;
      if (key === 'properties' && isNode(child))
        for (const [name, value] of Object.entries(child)) walk(value, `${at}/properties/${name}`, name);
      else walk(child, `${at}/${key}`, key === 'items' || key === 'allOf' ? property : undefined);
    }
  };
  walk(document, '#');
  return found;
}

describe('openapi.json for code generators', () => {
  it('has patterns that compile as a unicode RegExp and inside a regex literal (as generators write them)', () => {
    const patterns = schemaNodes().filter(({ schema }) => typeof schema['pattern'] === 'string');
    expect(patterns.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const { at, schema } of patterns) {
      const pattern = schema['pattern'] as string;
      try {
        new RegExp(pattern, 'u');
        // openapi-zod-client and orval emit /<pattern>/ with each `/` escaped
        new Function(`return /${pattern.replace(/\//g, '\\/')}/u;`)();
      } catch (error) {
        broken.push(`${at}: ${pattern} (${(error as Error).message})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('gives every integer that can pass 2^31 − 1 (bytes, sizes, counts, larger maximums) format int64', () => {
    const int32 = 2 ** 31 - 1;
    const narrow = schemaNodes()
      .filter(({ schema }) => schema['type'] === 'integer' && schema['format'] !== 'int64')
      .filter(({ schema, property }) => {
        const maximum = schema['maximum'];
        if (typeof maximum === 'number') return maximum > int32;
        return property !== undefined && /bytes|size|count/.test(property);
      })
      .map(({ at }) => at);
    expect(narrow).toEqual([]);
    expect(schemas['Quota']).toMatchObject({ properties: { limit_bytes: { type: 'integer', format: 'int64' } } });
  });

  it('references named schemas instead of copying them (nullable ones through allOf beside nullable)', () => {
    const shape = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(shape);
      if (!isNode(node)) return node;
      const keys = Object.keys(node)
        .filter((key) => !['example', 'nullable', 'description', 'title', 'additionalProperties'].includes(key))
        .sort();
      return Object.fromEntries(keys.map((key) => [key, shape(node[key])]));
    };
    const named = new Map(
      Object.entries(schemas)
        .filter(([, schema]) => isNode(schema['properties']))
        .map(([name, schema]) => [JSON.stringify(shape(schema)), name]),
    );
    const copies = schemaNodes()
      .filter(({ at, schema }) => isNode(schema['properties']) && !/^#\/components\/schemas\/\w+$/.test(at))
      .flatMap(({ at, schema }) => {
        const name = named.get(JSON.stringify(shape(schema)));
        return name ? [`${at} copies ${name}`] : [];
      });
    expect(copies).toEqual([]);
    // OpenAPI 3.0 reads nullable only beside a type (Redocly's nullable-type-sibling)
    expect(
      schemaNodes()
        .filter(({ schema }) => schema['nullable'] === true && schema['type'] === undefined)
        .map(({ at }) => at),
    ).toEqual([]);
    expect(schemas['PlaylistCollaborator']).toMatchObject({
      properties: { user: { allOf: [{ $ref: '#/components/schemas/Profile' }] } },
    });
    expect(schemas['QueueItem']).toMatchObject({
      properties: { track: { allOf: [{ $ref: '#/components/schemas/Track' }], nullable: true } },
    });
  });

  it('names every JSON reply schema as a component, one envelope per payload', () => {
    const inline = operations.flatMap(({ name, operation }) =>
      Object.entries(operation.responses).flatMap(([status, response]) => {
        const schema = response.content?.['application/json']?.schema;
        return schema && schema['$ref'] === undefined ? [`${name} ${status}`] : [];
      }),
    );
    expect(inline).toEqual([]);
    const envelopes = Object.entries(schemas).filter(
      ([, schema]) => isNode(schema['properties']) && isNode((schema['properties'] as Node)['success']),
    );
    const payloads = envelopes.map(([, schema]) => JSON.stringify((schema['properties'] as Node)['data']));
    expect(new Set(payloads).size).toBe(payloads.length);
    expect(schemas['TrackReplyEnvelope']).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/TrackReply' } },
    });
  });

  it('lists a relative server first, so a generated client does not default to a developer’s machine', () => {
    expect(document.servers[0]?.url).toBe('/');
  });

  it('constrains every id in a path: a UUID, or a pattern (UUID or me)', () => {
    const bare = operations.flatMap(({ name, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path' && /^id$|Id$/.test(parameter.name))
        .filter((parameter) => parameter.schema['format'] !== 'uuid' && typeof parameter.schema['pattern'] !== 'string')
        .map((parameter) => `${name} ${parameter.name}`),
    );
    expect(bare).toEqual([]);
    const quota = document.paths['/api/v1/tracks/quota/{id}']!['get']!.parameters!.find(
      (parameter) => parameter.name === 'id',
    )!;
    const pattern = new RegExp(quota.schema['pattern'] as string, 'u');
    expect(
      ['me', '0b6f3c2e-8d4a-4f1e-9c7b-2a5d6e8f1a3b', 'mee', 'you', '0b6f3c2e'].map((value) => pattern.test(value)),
    ).toEqual([true, true, false, false, false]);
  });

  it('has a contact, and bounds the playlist import and the X-Request-Id header', () => {
    expect(document.info.contact?.['name']).toEqual(expect.any(String));
    expect(schemas['ImportPlaylistRequest']).toMatchObject({
      properties: { content: { maxLength: expect.any(Number) } },
    });
    expect(document.components.headers['XRequestId']!.schema).toMatchObject({ maxLength: 128 });
  });

  it('uses each id once in an example, nested ones included (example validators read a repeated id as a second schema)', () => {
    const repeated: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) {
      const ids: string[] = [];
      const collect = (value: unknown): void => {
        if (Array.isArray(value)) return value.forEach(collect);
        if (!isNode(value)) return;
        if (typeof value['id'] === 'string') ids.push(value['id']);
        Object.values(value).forEach(collect);
      };
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (!isNode(node)) return;
        for (const [key, child] of Object.entries(node)) (key === 'example' ? collect : walk)(child);
      };
      walk(schema);
      const twice = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
      if (twice.length > 0) repeated.push(`${name}: ${twice.join(', ')}`);
    }
    expect(repeated).toEqual([]);
  });
});
