/**
 * The strict reply validator (tests/support/strict-validator.ts) that the Prism gate runs on every
 * reply of the suite: it must catch what Prism lets through. Each case breaks a small hand-made
 * document or reply, never the real openapi.json; the last ones hold the real document to what a
 * strict validator needs (closed reply schemas, nullable enums listing null).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT } from '../support/prism.js';
import { createStrictValidator, toJsonSchema, type StrictReply } from '../support/strict-validator.js';

const person = (nullableEnum: unknown[]) => ({
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    gender: { type: 'string', nullable: true, enum: nullableEnum },
    address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  required: ['id', 'name', 'gender'],
});

/** A document as the generator writes them: refs to components, headers by ref, a wildcard media type. */
const documentWith = (nullableEnum: unknown[] = ['f', 'm', null]) => ({
  openapi: '3.0.3',
  info: { title: 'fixture', version: '1' },
  paths: {
    '/people/{id}': {
      get: {
        operationId: 'getPerson',
        responses: {
          '200': {
            description: 'OK',
            headers: {
              'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
              'X-Total-Count': { $ref: '#/components/headers/XTotalCount' },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Person' } } },
          },
          '304': {
            description: 'Not modified',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } },
          },
        },
      },
    },
    '/people/by-name/{name}': {
      get: {
        operationId: 'getPersonByName',
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } },
          },
        },
      },
    },
    '/people/{id}/avatar': {
      get: {
        operationId: 'getAvatar',
        responses: {
          '200': { description: 'OK', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
        },
      },
    },
  },
  components: {
    headers: {
      XRequestId: { description: 'id', required: true, schema: { type: 'string' } },
      XTotalCount: { description: 'count', schema: { type: 'integer', minimum: 0 } },
    },
    schemas: { Person: person(nullableEnum) },
  },
});

const ID = '0b6f3c2e-8d4a-4f1e-9c7b-2a5d6e8f1a3b';
const good = { id: ID, name: 'Mira', gender: null, address: { city: 'Lyon' } };

function reply(
  overrides: Partial<Omit<StrictReply, 'headers' | 'body'>> & { headers?: Record<string, string>; body?: unknown } = {},
): StrictReply {
  const body = overrides.body === undefined ? good : overrides.body;
  return {
    method: overrides.method ?? 'GET',
    url: overrides.url ?? `/people/${ID}?fields=all`,
    status: overrides.status ?? 200,
    headers: new Headers(
      overrides.headers ?? { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' },
    ),
    body: Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

describe('the strict reply validator', () => {
  const validator = createStrictValidator(documentWith());

  it('accepts a reply that conforms', () => {
    expect(validator.check(reply())).toEqual([]);
    expect(
      validator.check(
        reply({ headers: { 'content-type': 'application/json', 'x-request-id': 'r', 'x-total-count': '3' } }),
      ),
    ).toEqual([]);
  });

  it('catches an undeclared field, at the top and nested, though the document never says additionalProperties', () => {
    const found = validator.check(
      reply({ body: { ...good, file_path: '/srv/data/a.mp3', address: { city: 'Lyon', zip: '69001' } } }),
    );
    expect(found).toEqual([
      expect.objectContaining({
        operationId: 'getPerson',
        status: 200,
        pointer: '/file_path',
        message: expect.stringMatching(/does not declare \(file_path\)/),
      }),
      expect.objectContaining({ operationId: 'getPerson', status: 200, pointer: '/address/zip' }),
    ]);
  });

  it('catches a missing required header, and a header whose value breaks its schema', () => {
    const missing = validator.check(reply({ headers: { 'content-type': 'application/json' } }));
    expect(missing).toEqual([
      expect.objectContaining({
        operationId: 'getPerson',
        pointer: '/headers/X-Request-Id',
        message: expect.stringMatching(/required header X-Request-Id is missing/),
      }),
    ]);
    const wrong = validator.check(
      reply({ headers: { 'content-type': 'application/json', 'x-request-id': 'r', 'x-total-count': 'many' } }),
    );
    expect(wrong).toEqual([
      expect.objectContaining({ pointer: '/headers/X-Total-Count', message: expect.stringMatching(/must be integer/) }),
    ]);
    // an optional header may be absent
    expect(validator.check(reply({ status: 304, body: '', headers: { 'x-request-id': 'r' } }))).toEqual([]);
  });

  it('catches null in a nullable enum that does not list null (OpenAPI 3.0.3), and accepts it once the enum lists null', () => {
    const unlisted = createStrictValidator(documentWith(['f', 'm']));
    expect(unlisted.check(reply())).toEqual([
      expect.objectContaining({
        operationId: 'getPerson',
        pointer: '/gender',
        message: expect.stringMatching(
          /allowed values \["f","m"\].*#\/components\/schemas\/Person\/properties\/gender\/enum/,
        ),
      }),
    ]);
    expect(unlisted.check(reply({ body: { ...good, gender: 'f' } }))).toEqual([]);
    expect(validator.check(reply({ body: { ...good, gender: 'x' } }))).toEqual([
      expect.objectContaining({ pointer: '/gender' }),
    ]);
  });

  it('catches a missing property and a wrong format, each at its JSON pointer', () => {
    const { name: _name, ...nameless } = good;
    const found = validator.check(reply({ body: { ...nameless, id: 'not-a-uuid' } }));
    expect(found?.map((violation) => violation.pointer).sort()).toEqual(['/id', '/name']);
  });

  it('catches a status the operation does not declare', () => {
    expect(validator.check(reply({ status: 500, body: { error: 'boom' } }))).toEqual([
      expect.objectContaining({ operationId: 'getPerson', status: 500, pointer: '/status' }),
    ]);
  });

  it('checks the content type: a declared one (wildcards included), never another, and no body where none is declared', () => {
    const avatar = `/people/${ID}/avatar`;
    expect(
      validator.check(
        reply({ url: avatar, headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }),
      ),
    ).toEqual([]);
    expect(
      validator.check(reply({ url: avatar, headers: { 'content-type': 'text/html' }, body: '<p>no</p>' })),
    ).toEqual([expect.objectContaining({ operationId: 'getAvatar', pointer: '/content-type' })]);
    expect(
      validator.check(reply({ headers: { 'content-type': 'text/plain', 'x-request-id': 'r' }, body: 'plain' })),
    ).toEqual([expect.objectContaining({ pointer: '/content-type' })]);
    expect(
      validator.check(reply({ headers: { 'content-type': 'application/json', 'x-request-id': 'r' }, body: '{"id":' })),
    ).toEqual([expect.objectContaining({ pointer: '/', message: expect.stringMatching(/not JSON/) })]);
  });

  it('picks the operation of a literal segment over a parameter, answers HEAD as GET without a body, and skips what the document lacks', () => {
    expect(
      validator.check(
        reply({ url: '/people/by-name/mira', headers: { 'content-type': 'application/json' }, body: { name: 'Mira' } }),
      ),
    ).toEqual([]);
    expect(validator.check(reply({ method: 'HEAD', body: '' }))).toEqual([]);
    expect(validator.check(reply({ method: 'HEAD', body: '', headers: {} }))).toEqual([
      expect.objectContaining({ pointer: '/headers/X-Request-Id' }),
    ]);
    expect(validator.check(reply({ url: '/elsewhere' }))).toBeUndefined();
  });

  it('turns nullable into the type null beside the type, and leaves the members of allOf open', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, example: 'a' })).toEqual({ type: ['string', 'null'] });
    // a nullable reference: null, or what the referenced schema allows (its type beside nullable is for OpenAPI 3.0 readers)
    expect(toJsonSchema({ type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Person' }] })).toEqual({
      anyOf: [
        { type: 'null' },
        { type: 'object', allOf: [{ $ref: 'https://riff.invalid/openapi.json#/definitions/Person' }] },
      ],
    });
    expect(toJsonSchema({ allOf: [{ type: 'object', properties: { a: { type: 'string' } } }] })).toEqual({
      allOf: [{ type: 'object', properties: { a: { type: 'string' } } }],
    });
    expect(toJsonSchema({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    });
  });
});

describe('openapi.json for strict validators', () => {
  const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as {
    paths: Record<
      string,
      Record<
        string,
        { operationId: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
      >
    >;
    components: { schemas: Record<string, unknown> };
  };

  /** Every schema node reached from the replies (refs followed once), with where it is. */
  function replySchemas(): { at: string; schema: Record<string, unknown> }[] {
    const found: { at: string; schema: Record<string, unknown> }[] = [];
    const seen = new Set<string>();
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((child, index) => walk(child, `${at}/${index}`));
      const schema = node as Record<string, unknown>;
      const ref = schema['$ref'];
      if (typeof ref === 'string') {
        const name = ref.replace('#/components/schemas/', '');
        if (!seen.has(name)) {
          seen.add(name);
          walk(document.components.schemas[name], ref);
        }
        return;
      }
      found.push({ at, schema });
      for (const [key, child] of Object.entries(schema)) {
        if (key === 'properties')
          for (const [name, property] of Object.entries(child as Record<string, unknown>))
            walk(property, `${at}/properties/${name}`);
        else if (['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf'].includes(key))
          walk(child, `${at}/${key}`);
      }
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {}))
            walk(media.schema, `${method} ${path} ${status} ${type}`);
        }
      }
    }
    return found;
  }

  it('closes every object of every reply schema', () => {
    const schemas = replySchemas();
    expect(schemas.length).toBeGreaterThan(100);
    const open = schemas
      .filter(({ schema }) => schema['properties'] !== undefined && schema['additionalProperties'] === undefined)
      .map(({ at }) => at);
    expect(open).toEqual([]);
  });

  it('lists null in every nullable enum', () => {
    const unlisted: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (record['nullable'] === true && Array.isArray(record['enum']) && !record['enum'].includes(null))
        unlisted.push(at);
      for (const [key, child] of Object.entries(record)) if (key !== 'example') walk(child, `${at}/${key}`);
    };
    walk(document, '#');
    expect(unlisted).toEqual([]);
  });

  it('compiles for the strict validator, every reply of every operation', () => {
    const validator = createStrictValidator(document as unknown as Record<string, unknown>);
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const type of Object.keys(response.content ?? {})) {
            const url = path.replace(/\{[^}]+\}/g, ID);
            const found = validator.check({
              method: method.toUpperCase(),
              url,
              status: Number(status),
              headers: new Headers({ 'content-type': type.replace('*', 'x') }),
              body: Buffer.from('null'),
            });
            expect(
              found?.filter((violation) => violation.operationId !== operation.operationId),
              `${method} ${path} ${status}`,
            ).toEqual([]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    // about 8 s of CPU (a validator per operation, status and media type): more than the default 30 s on a busy machine
  }, 120_000);
});
