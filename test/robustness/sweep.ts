/**
 * The sweep itself: for every operation a service serves (its handler table), a plausible request
 * from the model, then each hostile variant of it (model-inputs.ts) and each whole-body attack its
 * protocol allows (malformed JSON, forms and XML, wrong content types), sent over HTTP and judged
 * (support.ts). Before each operation the service's fixtures are rebuilt from a reset store, so
 * every operation meets the same world; for mutating operations every refused request must leave
 * the store's digest unchanged; for services that validate by the model, an input the model
 * forbids must not be accepted; the health endpoint must answer after each operation; and nothing
 * may be logged as an internal error. By hand: ROBUSTNESS_BUDGET and ROBUSTNESS_SEED widen or vary
 * a run, ROBUSTNESS_REPORT and ROBUSTNESS_TRACE name files for the findings and for every answer.
 */
import { appendFileSync } from 'node:fs';
import type { TestServer } from '../helpers/server.js';
import { mutations, sampleInput, type Fixtures } from './model-inputs.js';
import { Findings, healthy, judge, knownCodes, rng, send, storeDigest, type RawRequest, type Verdict } from './support.js';
import { buildRequest, type Service } from './wire-requests.js';

export interface BodyAttack {
  label: string;
  /** Rewrites the plausible request of an operation (body, content type, form, …). */
  apply: (req: RawRequest, operation: string) => RawRequest | undefined;
}

export interface SweepPlan {
  service: Service;
  /** Operation names served (the keys of the routes module's handler table). */
  operations: string[];
  /** Rebuilds the service's fixtures on an empty store; returns the member values to use. */
  setup: () => Promise<Fixtures>;
  /** Member-level variants per operation beyond the missing-member ones. */
  budget: number;
  seed: number;
  attacks?: BodyAttack[];
  /**
   * Whether the service validates input against the model's constraints (Coral services do; S3
   * does not), so that accepting an input the model forbids is a defect.
   */
  strictModel: boolean;
}

const READ_ONLY = /^(Get|List|Describe|Head|Validate|Estimate|Detect)/;

/** Captures what the server logs at error level (an internal failure leaves a trace here). */
export function captureErrors(t: TestServer): string[] {
  const lines: string[] = [];
  const log = t.server.runtime.log;
  log.error = (msg: string, extra?: unknown) => {
    lines.push(`${msg}${extra instanceof Error ? `: ${extra.stack ?? extra.message}` : ''}`);
  };
  return lines;
}

export interface SweepResult {
  findings: Findings;
  requests: number;
  variants: Set<string>;
}

export async function runSweep(t: TestServer, plan: SweepPlan): Promise<SweepResult> {
  const findings = new Findings();
  const errors = captureErrors(t);
  const random = rng(Number(process.env.ROBUSTNESS_SEED) || plan.seed);
  const budget = Number(process.env.ROBUSTNESS_BUDGET) || plan.budget;
  const svc = plan.service;
  const variants = new Set<string>();
  const verdictFor = (notImplemented = false): Verdict => ({
    protocol: svc.protocol,
    model: svc.model,
    codes: knownCodes(svc.model, svc.protocol),
    notImplemented,
  });
  const verdict = verdictFor();
  for (const operation of plan.operations) {
    await t.server.reset();
    const fixtures = await plan.setup();
    await t.server.runtime.background.drain();
    const base = sampleInput(svc.model, operation, fixtures);
    const checkState = !READ_ONLY.test(operation);
    const attempt = async (label: string, req: RawRequest | undefined, invalid?: string) => {
      if (!req) return;
      variants.add(label.replace(/ \S+$/, ''));
      const where = `${svc.id}.${operation} [${label}]`;
      const before = checkState ? storeDigest(t) : '';
      let res;
      try {
        res = await send(t.endpoint, req);
      } catch (err) {
        const message = (err as Error).message;
        // Node's client refuses to send some header values at all: not a request a client can make.
        if (/Invalid character|Invalid value/.test(message) && (err as { code?: string }).code?.startsWith('ERR_')) return;
        findings.add(where, message);
        return;
      }
      const code = judge(verdict, where, req.method, res, findings);
      // Entities must never be expanded: neither a file's content nor a laugh may come back.
      if (/root:.*:0:0:|(lol){20}/.test(res.body.toString('latin1'))) findings.add(where, 'an XML entity was expanded');
      if (process.env.ROBUSTNESS_TRACE) appendFileSync(process.env.ROBUSTNESS_TRACE, `${where} => ${res.status} ${code ?? ''}\n`);
      if (invalid && plan.strictModel && res.status < 300) findings.add(where, `accepted (${res.status}) an input the model forbids: ${invalid}`);
      if (checkState && res.status >= 400) {
        await t.server.runtime.background.drain();
        if (storeDigest(t) !== before) findings.add(where, `refused with ${res.status} but the store changed`);
      }
      while (errors.length > 0) findings.add(where, `logged: ${errors.shift()!.slice(0, 300)}`);
    };
    await attempt('plausible', buildRequest(svc, operation, base));
    const json = svc.protocol === 'json' || svc.protocol === 'rest-json';
    for (const m of mutations(svc.model, operation, base, random, budget, json, fixtures)) {
      let req: RawRequest | undefined;
      try {
        req = buildRequest(svc, operation, m.input);
      } catch (err) {
        findings.add(`${svc.id}.${operation} [${m.label}]`, `request builder failed: ${(err as Error).message}`);
        continue;
      }
      await attempt(m.label, req, m.invalid);
    }
    for (const attack of plan.attacks ?? []) {
      await attempt(attack.label, attack.apply(buildRequest(svc, operation, base), operation));
    }
    if (!(await healthy(t))) {
      findings.add(`${svc.id}.${operation}`, 'health check failed afterwards');
      break;
    }
  }
  // Operations the model has and Overcast lacks: a plausible request gets 501 NotImplemented (or,
  // where the request names a served operation's resource, that operation's answer), never a 500.
  await t.server.reset();
  const fixtures = await plan.setup();
  const lacking = verdictFor(true);
  for (const operation of Object.keys(svc.model.operations).filter((op) => !plan.operations.includes(op))) {
    const req = buildRequest(svc, operation, sampleInput(svc.model, operation, fixtures));
    try {
      judge(lacking, `${svc.id}.${operation} [not served]`, req.method, await send(t.endpoint, req), findings);
    } catch (err) {
      if (!String((err as { code?: string }).code).startsWith('ERR_')) findings.add(`${svc.id}.${operation} [not served]`, (err as Error).message);
    }
  }
  while (errors.length > 0) findings.add(`${svc.id} [not served]`, `logged: ${errors.shift()!.slice(0, 300)}`);
  return { findings, requests: findings.count, variants };
}

/** Body attacks shared by the JSON protocols (rest-json bodies and JSON-RPC). */
export function jsonAttacks(): BodyAttack[] {
  const withBody = (label: string, body: string | Buffer, contentType?: string): BodyAttack => ({
    label,
    apply: (req) => {
      if (req.body === undefined) return undefined;
      const headers = { ...req.headers };
      if (contentType !== undefined) headers['content-type'] = contentType;
      return { ...req, headers, body };
    },
  });
  return [
    { label: 'truncated JSON', apply: (req) => (req.body === undefined ? undefined : { ...req, body: String(req.body).slice(0, Math.max(1, Math.floor(String(req.body).length / 2))) }) },
    withBody('JSON null', 'null'),
    withBody('top-level array', '[{}]'),
    withBody('top-level string', '"x"'),
    withBody('top-level number', '1e400'),
    withBody('empty object', '{}'),
    withBody('whitespace body', ' \n '),
    withBody('invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
    withBody('byte-order mark', '\ufeff{}'),
    withBody('deep nesting', `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`),
    withBody('prototype keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
    withBody('XML body', '<a/>', 'application/xml'),
    { label: 'no content type', apply: (req) => (req.body === undefined ? undefined : { ...req, headers: { ...req.headers, 'content-type': '' } }) },
    { label: 'text/plain content type', apply: (req) => (req.body === undefined ? undefined : { ...req, headers: { ...req.headers, 'content-type': 'text/plain' } }) },
  ];
}
