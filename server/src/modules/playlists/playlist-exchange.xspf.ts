import { DOMImplementation, DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import {
  notThatFormat,
  type ExchangeEntry,
  type ExchangeTrack,
  type ParsedPlaylist,
} from './playlist-exchange.text.js';

const XSPF_NS = 'http://xspf.org/ns/0/';
/** Characters XML 1.0 cannot carry at all, even escaped. */
const NOT_XML = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** The children of `parent` with this local name in the XSPF namespace (or none: some writers leave it out). */
function children(parent: Element, name: string): Element[] {
  const found: Element[] = [];
  for (let node: Node | null = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (
      node.nodeType === node.ELEMENT_NODE &&
      element.localName === name &&
      (element.namespaceURI === XSPF_NS || !element.namespaceURI)
    )
      found.push(element);
  }
  return found;
}

const text = (parent: Element, name: string): string | null => children(parent, name)[0]?.textContent?.trim() || null;

function read(content: string): Document {
  let problem: string | undefined;
  try {
    // xmldom expands no external entity and has no DTD entities at all: no XXE, no entity bombs
    return new DOMParser({
      onError: (level, message) => {
        if (level === 'warning') return;
        problem ??= message.split('\n')[0];
        throw new Error(message);
      },
    }).parseFromString(content.replace(/^\uFEFF/, ''), 'application/xml');
  } catch (error) {
    throw notThatFormat(
      'xspf',
      `not well-formed XML (${problem ?? (error instanceof Error ? error.message : 'unreadable')})`,
    );
  }
}

/** XSPF version 0 or 1: <playlist><trackList><track>…; each entry's line is its <track> tag's. */
export function parseXspf(content: string): ParsedPlaylist {
  const root = read(content).documentElement;
  if (!root || root.localName !== 'playlist' || (root.namespaceURI !== XSPF_NS && root.namespaceURI)) {
    throw notThatFormat('xspf', 'its root element is not an XSPF <playlist>');
  }
  const trackList = children(root, 'trackList')[0];
  if (!trackList) throw notThatFormat('xspf', 'it has no <trackList>');
  const entries = children(trackList, 'track').map((track): ExchangeEntry => {
    const uris = [...children(track, 'location'), ...children(track, 'identifier')]
      .map((element) => element.textContent?.trim() ?? '')
      .filter(Boolean);
    return { line: track.lineNumber ?? 1, uris, title: text(track, 'title'), artist: text(track, 'creator') };
  });
  return { title: text(root, 'title'), entries };
}

/** XSPF 1: location, identifier, title, creator, album and duration (milliseconds) per track; escaped by the serializer. */
export function writeXspf(title: string, tracks: readonly ExchangeTrack[]): string {
  const doc = new DOMImplementation().createDocument(XSPF_NS, 'playlist', null);
  const root = doc.documentElement!;
  root.setAttribute('version', '1');
  const indent = (parent: Element, depth: number) => parent.appendChild(doc.createTextNode(`\n${'  '.repeat(depth)}`));
  const add = (parent: Element, depth: number, name: string, value: string | null) => {
    const element = doc.createElementNS(XSPF_NS, name);
    if (value !== null) element.appendChild(doc.createTextNode(value.replace(NOT_XML, '')));
    indent(parent, depth);
    parent.appendChild(element);
    return element;
  };
  add(root, 1, 'title', title);
  const list = add(root, 1, 'trackList', null);
  for (const track of tracks) {
    const element = add(list, 2, 'track', null);
    add(element, 3, 'location', track.location);
    add(element, 3, 'identifier', track.identifier);
    add(element, 3, 'title', track.title);
    if (track.artist) add(element, 3, 'creator', track.artist);
    if (track.album) add(element, 3, 'album', track.album);
    if (Number.isFinite(track.duration) && track.duration > 0)
      add(element, 3, 'duration', String(Math.round(track.duration * 1000)));
    indent(element, 2);
  }
  if (tracks.length > 0) indent(list, 1);
  indent(root, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}\n`;
}
