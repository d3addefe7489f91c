/**
 * XML primitives for the query and rest-xml protocols: escaping for the writer, and a parser
 * (fast-xml-parser, order-preserving) that yields a small element tree and tells malformed
 * documents apart, so S3 can answer MalformedXML instead of failing.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export function element(name: string, inner: string): string {
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

export function textElement(name: string, value: string | number | boolean | undefined | null): string {
  if (value === undefined || value === null) return '';
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

function convert(entry: Ordered): XmlNode | undefined {
  const name = Object.keys(entry).find((k) => k !== ':@');
  if (!name || name === '#text' || name === '#comment') return undefined;
  const rawChildren = (entry[name] as Ordered[]) ?? [];
  const children: XmlNode[] = [];
  let text = '';
  for (const child of rawChildren) {
    if ('#text' in child) text += String(child['#text']);
    else {
      const node = convert(child);
      if (node) children.push(node);
    }
  }
  const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  return { name: local, attrs: entry[':@'] ?? {}, children, text };
}

/** Parses an XML document to its root element, or returns undefined when it is malformed. */
export function parseXml(text: string): XmlNode | undefined {
  if (text.trim() === '') return undefined;
  if (XMLValidator.validate(text) !== true) return undefined;
  const doc = parser.parse(text) as Ordered[];
  for (const entry of doc) {
    const node = convert(entry);
    if (node) return node;
  }
  return undefined;
}

export function child(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.find((c) => c.name === name);
}

export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((c) => c.name === name);
}

export function childText(node: XmlNode, name: string): string | undefined {
  return child(node, name)?.text;
}
