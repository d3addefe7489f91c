/**
 * Shape-driven XML for the query (CloudFormation, STS) and rest-xml (S3) protocols: element names
 * from `locationName` or the member name, `<member>` wrappers for lists unless flattened, `<entry>`
 * for maps, ISO-8601 timestamps, base64 blobs; and the reverse for request bodies.
 */
import type { MemberRef, ServiceModel, Shape } from '../model/service-model.js';
import { shapeOf } from '../model/service-model.js';
import { AwsError } from './errors.js';
import { formatTimestamp, parseTimestamp } from './timestamps.js';
import { escapeXml, type XmlNode } from './xml.js';

function isFlattened(shape: Shape, ref?: MemberRef): boolean {
  return Boolean(shape.flattened || ref?.flattened);
}

/** Writes `value` as the element `name` (for flattened lists: one element per item). */
export function writeXml(model: ServiceModel, shape: Shape, value: unknown, name: string, ref?: MemberRef): string {
  if (value === undefined || value === null) return '';
  switch (shape.type) {
    case 'structure':
      return `<${name}>${writeMembers(model, shape, value as Record<string, unknown>)}</${name}>`;
    case 'list': {
      const items = value as unknown[];
      const memberRef = shape.member!;
      const memberShape = shapeOf(model, memberRef.shape);
      if (isFlattened(shape, ref)) {
        return items.map((item) => writeXml(model, memberShape, item, name, memberRef)).join('');
      }
      const itemName = memberRef.locationName ?? 'member';
      const inner = items.map((item) => writeXml(model, memberShape, item, itemName, memberRef)).join('');
      return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
    }
    case 'map': {
      const keyName = shape.key!.locationName ?? 'key';
      const valueName = shape.value!.locationName ?? 'value';
      const valueShape = shapeOf(model, shape.value!.shape);
      const entries = Object.entries(value as Record<string, unknown>).map(
        ([k, v]) =>
          `<${keyName}>${escapeXml(k)}</${keyName}>${writeXml(model, valueShape, v, valueName, shape.value)}`,
      );
      if (isFlattened(shape, ref)) return entries.map((e) => `<${name}>${e}</${name}>`).join('');
      return `<${name}>${entries.map((e) => `<entry>${e}</entry>`).join('')}</${name}>`;
    }
    case 'timestamp': {
      const d = value instanceof Date ? value : parseTimestamp(value);
      if (!d) return '';
      const text = formatTimestamp(d, ref?.timestampFormat ?? shape.timestampFormat ?? 'iso8601');
      return `<${name}>${escapeXml(String(text))}</${name}>`;
    }
    case 'blob': {
      const text = Buffer.isBuffer(value) || value instanceof Uint8Array
        ? Buffer.from(value as Uint8Array).toString('base64')
        : String(value);
      return `<${name}>${escapeXml(text)}</${name}>`;
    }
    default:
      return `<${name}>${escapeXml(String(value))}</${name}>`;
  }
}

/** The child elements of a structure (members bound to headers or the status code are skipped). */
export function writeMembers(model: ServiceModel, shape: Shape, value: Record<string, unknown>): string {
  let out = '';
  for (const [memberName, ref] of Object.entries(shape.members ?? {})) {
    if (ref.location || ref.xmlAttribute) continue;
    const v = value[memberName];
    if (v === undefined || v === null) continue;
    out += writeXml(model, shapeOf(model, ref.shape), v, ref.locationName ?? memberName, ref);
  }
  return out;
}

function scalar(shape: Shape, text: string, path: string, invalidCode: string): unknown {
  switch (shape.type) {
    case 'integer':
    case 'long':
    case 'float':
    case 'double': {
      const n = Number(text.trim());
      if (text.trim() === '' || Number.isNaN(n)) throw new AwsError(invalidCode, `Invalid number at ${path}`, 400);
      return n;
    }
    case 'boolean':
      return text.trim().toLowerCase() === 'true';
    case 'timestamp': {
      const d = parseTimestamp(text.trim());
      if (!d) throw new AwsError(invalidCode, `Invalid timestamp at ${path}`, 400);
      return d;
    }
    case 'blob':
      return Buffer.from(text, 'base64');
    default:
      return text;
  }
}

/** Reads an element into the value of `shape` (request bodies of S3). */
export function readXml(model: ServiceModel, shape: Shape, node: XmlNode, invalidCode: string, path = node.name): unknown {
  switch (shape.type) {
    case 'structure': {
      const out: Record<string, unknown> = {};
      for (const [memberName, ref] of Object.entries(shape.members ?? {})) {
        if (ref.location) continue;
        const memberShape = shapeOf(model, ref.shape);
        const elName = ref.locationName ?? memberName;
        if (ref.xmlAttribute) {
          if (node.attrs[elName] !== undefined) out[memberName] = node.attrs[elName];
          continue;
        }
        if (memberShape.type === 'list' && isFlattened(memberShape, ref)) {
          const items = node.children.filter((c) => c.name === elName);
          if (items.length > 0) {
            const itemShape = shapeOf(model, memberShape.member!.shape);
            out[memberName] = items.map((c, i) => readXml(model, itemShape, c, invalidCode, `${path}.${elName}[${i}]`));
          }
          continue;
        }
        const childNode = node.children.find((c) => c.name === elName);
        if (childNode) out[memberName] = readXml(model, memberShape, childNode, invalidCode, `${path}.${elName}`);
      }
      return out;
    }
    case 'list': {
      const itemName = shape.member!.locationName ?? 'member';
      const itemShape = shapeOf(model, shape.member!.shape);
      return node.children
        .filter((c) => c.name === itemName)
        .map((c, i) => readXml(model, itemShape, c, invalidCode, `${path}[${i}]`));
    }
    case 'map': {
      const keyName = shape.key!.locationName ?? 'key';
      const valueName = shape.value!.locationName ?? 'value';
      const valueShape = shapeOf(model, shape.value!.shape);
      const out: Record<string, unknown> = {};
      for (const entry of node.children.filter((c) => c.name === 'entry')) {
        const k = entry.children.find((c) => c.name === keyName)?.text;
        const v = entry.children.find((c) => c.name === valueName);
        if (k !== undefined && v) out[k] = readXml(model, valueShape, v, invalidCode, `${path}.${k}`);
      }
      return out;
    }
    default:
      return scalar(shape, node.text, path, invalidCode);
  }
}
