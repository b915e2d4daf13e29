/**
 * The examples of openapi.json (what /docs shows and `prism mock` answers) are data a client can
 * use: every named schema has one, each passes the contract's own zod schema, error replies carry a
 * stable code sent with that status, and lists agree with their pagination.
 */
import { readFileSync } from 'node:fs';
import { isZodType } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorEnvelopeSchema } from '@riff/contract';
import { OPENAPI_DOCUMENT } from '../support/prism.js';
import { contractOperations } from './operations.js';
import { paginationProblems } from './pagination.js';

interface Schema {
  example?: unknown;
  enum?: unknown[];
  $ref?: string;
}
interface MediaType {
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const components = document.components.schemas;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

/** Every zod schema of the contract that carries an OpenAPI title, by title. */
function namedSchemas(): Map<string, ZodTypeAny> {
  const found = new Map<string, ZodTypeAny>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (isZodType(value)) {
      const title = (value as { metaOpenApi?: { title?: string } }).metaOpenApi?.title;
      if (title && !found.has(title)) found.set(title, value);
      const def = (value as unknown as { _def: Record<string, unknown> })._def;
      const shape = typeof def['shape'] === 'function' ? (def['shape'] as () => unknown)() : undefined;
      for (const child of [
        shape,
        def['innerType'],
        def['schema'],
        def['type'],
        def['valueType'],
        def['options'],
        def['left'],
        def['right'],
      ]) {
        if (Array.isArray(child)) child.forEach(visit);
        else if (child instanceof Map) [...child.values()].forEach(visit);
        else if (child && typeof child === 'object' && !isZodType(child)) Object.values(child).forEach(visit);
        else visit(child);
      }
      return;
    }
    Object.values(value).forEach(visit);
  };
  for (const { route } of contractOperations()) {
    visit('body' in route ? route.body : undefined);
    visit(route.responses);
    visit(route.query);
  }
  return found;
}

describe('examples in openapi.json', () => {
  const schemas = namedSchemas();

  it('every named schema has an example', () => {
    const missing = Object.keys(components).filter((name) => components[name]!.example === undefined);
    expect(missing).toEqual([]);
  });

  it.each(Object.keys(components))('the %s example passes the contract’s zod schema', (name) => {
    const schema = schemas.get(name);
    expect(schema, `no zod schema titled ${name} in the contract`).toBeDefined();
    const parsed = schema!.safeParse(components[name]!.example);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it('the register example is a registration the server accepts, and the login example has tokens', () => {
    const register = components['RegisterRequest']!.example as {
      password: string;
      password_confirmation: string;
      email: string;
    };
    expect(schemas.get('RegisterRequest')!.safeParse(register).success).toBe(true);
    expect(register.password).toBe(register.password_confirmation);
    expect(components['LoginResponse']!.example).toMatchObject({
      requires_2fa: false,
      token: { token_type: 'Bearer' },
    });
    expect(components['LoginResponse']!.example).not.toHaveProperty('two_factor_token');
  });

  it('every request body has an example', () => {
    const missing = operations.flatMap(({ name, operation }) =>
      Object.entries(operation.requestBody?.content ?? {})
        .filter(([, media]) => exampleOf(media) === undefined)
        .map(([type]) => `${name} ${type}`),
    );
    expect(missing).toEqual([]);
  });

  it('every error reply shows a stable code that is sent with its status', () => {
    let checked = 0;
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        if (media?.schema?.$ref !== '#/components/schemas/ErrorEnvelope') continue;
        const example = ErrorEnvelopeSchema.parse(media.example);
        expect(
          ERROR_CODES[example.error.code as keyof typeof ERROR_CODES],
          `${name} ${status}: ${example.error.code}`,
        ).toBe(Number(status));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(operations.length);
  });

  it('documents the error code as the enum of the stable codes', () => {
    expect(components['ErrorCode']!.enum).toEqual(Object.keys(ERROR_CODES));
  });

  it('lists agree with their pagination', () => {
    const pages = Object.entries(components).filter(
      ([, schema]) => (schema.example as { pagination?: unknown })?.pagination,
    );
    expect(pages.length).toBeGreaterThan(0);
    for (const [name, schema] of pages)
      expect(paginationProblems(schema.example as Record<string, unknown>), name).toEqual([]);
  });
});

describe('nullable in openapi.json', () => {
  const schemas = namedSchemas();
  const shapeOf = (schema: ZodTypeAny): Record<string, ZodTypeAny> | undefined => {
    const def = (schema as unknown as { _def: { shape?: () => Record<string, ZodTypeAny>; schema?: ZodTypeAny } })._def;
    return def.shape?.() ?? (def.schema ? shapeOf(def.schema) : undefined);
  };

  it('marks a property nullable only when the contract gives null back', () => {
    const wrong: string[] = [];
    for (const [name, component] of Object.entries(components) as [
      string,
      { properties?: Record<string, { nullable?: boolean }> },
    ][]) {
      const shape = schemas.get(name) && shapeOf(schemas.get(name)!);
      for (const [property, schema] of Object.entries(component.properties ?? {})) {
        if (!schema.nullable) continue;
        const parsed = shape?.[property]?.safeParse(null);
        if (!parsed?.success || parsed.data !== null) wrong.push(`${name}.${property}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never marks a parameter nullable (parameters are text on the wire)', () => {
    const nullable = operations.flatMap(({ name, operation }) =>
      ((operation as { parameters?: { name: string; schema?: { nullable?: boolean } }[] }).parameters ?? [])
        .filter((parameter) => parameter.schema?.nullable)
        .map((parameter) => `${name} ${parameter.name}`),
    );
    expect(nullable).toEqual([]);
  });
});

function exampleOf(media: MediaType): unknown {
  if (media.example !== undefined) return media.example;
  const ref = media.schema?.$ref?.replace('#/components/schemas/', '');
  return media.schema?.example ?? (ref ? components[ref]?.example : undefined);
}
