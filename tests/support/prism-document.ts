/**
 * The document as Prism 5 is given it. Prism reads OpenAPI 3.0's `nullable` only beside a `type`,
 * so a nullable reference (`allOf: [$ref]` beside `nullable: true`, the form openapi.json uses so
 * that generators emit one type) would refuse null there. For Prism alone, each such reference is
 * replaced by a copy of the referenced schema with `nullable: true`; everything else is unchanged.
 * The copy is written once per content, next to the system's temporary files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type JsonObject = Record<string, unknown>;
const SCHEMA_REF = '#/components/schemas/';
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function inlineNullableReferences(document: JsonObject): JsonObject {
  const schemas = ((document['components'] as JsonObject | undefined)?.['schemas'] ?? {}) as Record<string, JsonObject>;
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!isObject(node)) return node;
    const members = node['allOf'];
    if (node['nullable'] === true && Array.isArray(members) && members.length === 1 && isObject(members[0])) {
      const ref = members[0]['$ref'];
      const target =
        typeof ref === 'string' && ref.startsWith(SCHEMA_REF) ? schemas[ref.slice(SCHEMA_REF.length)] : undefined;
      if (target) {
        const { title: _title, example: _example, ...copy } = target;
        return inline({
          ...copy,
          ...(node['description'] === undefined ? {} : { description: node['description'] }),
          nullable: true,
        });
      }
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => [key, key === 'example' ? child : inline(child)]),
    );
  };
  return inline(document) as JsonObject;
}

/** The path of the Prism copy of the document at `source`. */
export function prismDocument(source: string): string {
  const text = readFileSync(source, 'utf8');
  const target = path.join(tmpdir(), `riff-prism-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  if (!existsSync(target)) {
    const temporary = `${target}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(inlineNullableReferences(JSON.parse(text) as JsonObject)));
    // renamed into place, so a Prism started by another process never reads half a file
    renameSync(temporary, target);
  }
  return target;
}
