/**
 * Attacks on S3's XML request bodies: an unknown root element, unclosed and mismatched tags,
 * entity tricks (billion laughs, external entities, parameter entities — XML parsing must expand
 * none of them), a DOCTYPE, deep nesting, control characters by reference, CDATA, processing
 * instructions, a UTF-16 byte-order mark, JSON or nothing instead of XML, and a body over S3's
 * size limit. Each body gets a matching Content-MD5, so the XML parser (not the digest check) is
 * what answers.
 */
import { createHash } from 'node:crypto';
import type { BodyAttack } from './sweep.js';
import type { RawRequest } from './support.js';

/** An element of the request's own root, so only the attack differs from a plausible body. */
function rootOf(req: RawRequest): string {
  return /^<([A-Za-z][\w.-]*)/.exec(String(req.body ?? ''))?.[1] ?? 'Tagging';
}

function withBody(req: RawRequest, body: string | Buffer): RawRequest {
  const headers = { ...req.headers, 'content-md5': createHash('md5').update(body).digest('base64') };
  return { ...req, headers, body };
}

const LAUGHS =
  '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">' +
  '<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">' +
  '<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">' +
  '<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">' +
  '<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">' +
  '<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">' +
  '<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>';

export function xmlAttacks(): BodyAttack[] {
  const attack = (label: string, body: (root: string, req: RawRequest) => string | Buffer): BodyAttack => ({
    label,
    apply: (req) => (req.body === undefined || !String(req.body).startsWith('<') ? undefined : withBody(req, body(rootOf(req), req))),
  });
  return [
    attack('unknown root', () => '<NoSuchRoot><Member>x</Member></NoSuchRoot>'),
    attack('unclosed tags', (root) => `<${root}><A><B>`),
    attack('mismatched tags', (root) => `<${root}><A></B></${root}>`),
    attack('two roots', (root) => `<${root}/><${root}/>`),
    attack('text only', () => 'just some text'),
    attack('declaration only', () => '<?xml version="1.0" encoding="UTF-8"?>'),
    attack('billion laughs', (root) => `${LAUGHS}<${root}><Key>&lol9;</Key><TagSet><Tag><Key>&lol9;</Key><Value>v</Value></Tag></TagSet></${root}>`),
    attack('external entity', (root) =>
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
      `<${root}><TagSet><Tag><Key>&xxe;</Key><Value>v</Value></Tag></TagSet><Status>&xxe;</Status></${root}>`),
    attack('parameter entity', (root) =>
      `<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><${root}/>`),
    attack('undefined entity', (root) => `<${root}><TagSet><Tag><Key>&nope;</Key><Value>v</Value></Tag></TagSet></${root}>`),
    attack('control character references', (root) => `<${root}><TagSet><Tag><Key>a&#0;b&#x1;</Key><Value>&#xFFFF;</Value></Tag></TagSet></${root}>`),
    attack('CDATA and comments', (root, req) => String(req.body).replace(`<${root}`, `<!-- c --><${root}`).replace(/>([^<]+)</, '><![CDATA[$1]]><')),
    attack('processing instruction', (root, req) => `<?pi data?>${String(req.body)}`),
    attack('deep nesting', (root) => `<${root}>${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</${root}>`),
    attack('100000 elements', (root) => `<${root}>${'<TagSet/>'.repeat(100_000)}</${root}>`),
    attack('UTF-16 byte-order mark', (_root, req) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(String(req.body), 'utf16le')])),
    attack('invalid UTF-8', (root) => Buffer.concat([Buffer.from(`<${root}><TagSet><Tag><Key>`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(`</Key></Tag></TagSet></${root}>`)])),
    attack('JSON instead of XML', () => '{"TagSet":[]}'),
    attack('empty body', () => ''),
    attack('3 MB body', (root) => `<${root}>${' '.repeat(3 * 1024 * 1024)}</${root}>`),
    attack('attributes and namespaces', (root) => `<x:${root} xmlns:x="urn:evil" x:a="1" a="2" a2='3'><x:TagSet/></x:${root}>`),
  ];
}
