/**
 * One object tree, two wire formats: every method builds its reply once as a SubsonicNode and the
 * router writes it as XML (the default) or JSON (f=json), by these rules, which are the shape the
 * Subsonic XSD gives XML and the shape OpenSubsonic gives JSON:
 *
 * | in the tree                          | XML                                   | JSON                   |
 * |--------------------------------------|---------------------------------------|------------------------|
 * | a scalar (string, number, boolean)   | an attribute                          | the value              |
 * | `childText(scalar)`                  | a child element holding the text      | the value              |
 * | an array of scalars                  | one child element per value, as text  | an array               |
 * | a node                               | a child element                       | an object              |
 * | an array of nodes                    | one child element per node            | an array of objects    |
 * | the key `value`                      | the element's text (Genre, Lyrics)    | `"value"`              |
 * | undefined                            | nothing                               | nothing                |
 *
 * Child elements are written in the order of the node's keys: build nodes in the order of the XSD's
 * sequences.
 */

export type SubsonicScalar = string | number | boolean;

/** A scalar the XSD makes a child element rather than an attribute (ArtistInfo's biography, …). */
export class ChildText {
  constructor(readonly value: SubsonicScalar) {}
}

export const childText = (value: SubsonicScalar) => new ChildText(value);

export type SubsonicField =
  | SubsonicScalar
  | ChildText
  | readonly SubsonicScalar[]
  | SubsonicNode
  | readonly SubsonicNode[]
  | undefined;

export interface SubsonicNode {
  readonly [name: string]: SubsonicField;
}

/** The namespace of the Subsonic XSD: every element of a reply is in it. */
export const SUBSONIC_NAMESPACE = 'http://subsonic.org/restapi';

/** Name of the key that holds an element's text content (as OpenSubsonic's JSON names it). */
const TEXT_KEY = 'value';

const isScalar = (value: unknown): value is SubsonicScalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

// characters XML 1.0 cannot hold at all (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates):
// a title that holds one would make the whole reply unreadable, so they are left out
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching the control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const text = (value: SubsonicScalar) => String(value).replace(NOT_XML, '');

const escapeText = (value: SubsonicScalar) =>
  text(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

// tabs and line breaks in an attribute are escaped, or a reader would normalise them to spaces
const escapeAttribute = (value: SubsonicScalar) =>
  escapeText(value)
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;');

function element(name: string, node: SubsonicNode, extraAttributes = ''): string {
  let attributes = extraAttributes;
  let children = '';
  let content = '';
  for (const [key, field] of Object.entries(node)) {
    if (field === undefined) continue;
    if (key === TEXT_KEY && isScalar(field)) {
      content = escapeText(field);
    } else if (isScalar(field)) {
      attributes += ` ${key}="${escapeAttribute(field)}"`;
    } else if (field instanceof ChildText) {
      children += `<${key}>${escapeText(field.value)}</${key}>`;
    } else if (Array.isArray(field)) {
      for (const item of field as readonly (SubsonicScalar | SubsonicNode)[]) {
        children += isScalar(item) ? `<${key}>${escapeText(item)}</${key}>` : element(key, item);
      }
    } else {
      children += element(key, field as SubsonicNode);
    }
  }
  const inner = content + children;
  return inner === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${inner}</${name}>`;
}

/** The reply as XML: `root` becomes the `subsonic-response` element, in the Subsonic namespace. */
export function toXml(root: SubsonicNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${element('subsonic-response', root, ` xmlns="${SUBSONIC_NAMESPACE}"`)}`;
}

function toPlain(field: SubsonicField): unknown {
  if (field instanceof ChildText) return field.value;
  if (Array.isArray(field)) return field.map((item: SubsonicScalar | SubsonicNode) => toPlain(item));
  if (field !== null && typeof field === 'object') {
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(field as SubsonicNode)) {
      if (value !== undefined) plain[key] = toPlain(value);
    }
    return plain;
  }
  return field;
}

/** The reply as JSON: `{"subsonic-response": root}`. */
export function toJson(root: SubsonicNode): string {
  return JSON.stringify({ 'subsonic-response': toPlain(root) });
}
