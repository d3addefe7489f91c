/**
 * XML primitives for the query and rest-xml protocols: escaping for the writer, and a parser
 * (fast-xml-parser, order-preserving) that yields a small element tree and tells malformed
 * documents apart, so S3 can answer MalformedXML instead of failing. References are decoded here,
 * strictly as XML 1.0 defines them (the five predefined entities and character references, which
 * the SDKs use for line breaks in keys); a document type declaration is refused, so no entity of
 * the client's (billion laughs, external files) is ever expanded.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

// A carriage return is written as a reference: a parser turns a literal one into a line feed.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"'\r]/g, (c) => ESCAPES[c]!);
}

export function element(name: string, inner: string): string {
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class Malformed extends Error {}

/** XML 1.0 `Char`: what a character reference may denote. */
function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/** Decodes references; an undefined entity or a reference to a non-character makes the document malformed. */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&]*);/g, (_m, ref: string) => {
    if (ref.startsWith('#')) {
      const cp = /^#x[0-9a-fA-F]{1,6}$/.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]{1,7}$/.test(ref) ? Number(ref.slice(1)) : NaN;
      if (!isXmlChar(cp)) throw new Malformed(`bad character reference &${ref};`);
      return String.fromCodePoint(cp);
    }
    const value = PREDEFINED[ref];
    if (value === undefined) throw new Malformed(`undefined entity &${ref};`);
    return value;
  });
}

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

function convert(entry: Ordered): XmlNode | undefined {
  const name = Object.keys(entry).find((k) => k !== ':@');
  if (!name || name === '#text' || name === '#comment') return undefined;
  const rawChildren = (entry[name] as Ordered[]) ?? [];
  const children: XmlNode[] = [];
  let text = '';
  for (const child of rawChildren) {
    if ('#text' in child) text += decodeReferences(String(child['#text']));
    else if ('#cdata' in child) {
      for (const part of child['#cdata'] as Ordered[]) text += String(part['#text'] ?? '');
    } else {
      const node = convert(child);
      if (node) children.push(node);
    }
  }
  const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(entry[':@'] ?? {})) attrs[k] = decodeReferences(String(v));
  return { name: local, attrs, children, text };
}

/** Parses an XML document to its root element, or returns undefined when it is malformed. */
export function parseXml(text: string): XmlNode | undefined {
  if (text.trim() === '') return undefined;
  // AWS's parsers refuse DTDs; accepting one would mean expanding the client's entities.
  if (/<!DOCTYPE/i.test(text)) return undefined;
  if (XMLValidator.validate(text) !== true) return undefined;
  try {
    const doc = parser.parse(text) as Ordered[];
    for (const entry of doc) {
      const node = convert(entry);
      if (node) return node;
    }
  } catch {
    // Malformed references, or a document the parser gives up on (nesting beyond its limit).
    return undefined;
  }
  return undefined;
}

export function child(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.find((c) => c.name === name);
}
