/**
 * Shared pieces of the CloudFormation tests: an SDK client for a test server, the `aws` CLI run as
 * a child process against it (JSON output parsed), raw query-protocol requests for what the SDK
 * would not send, and small template builders.
 */
import { execFile } from 'node:child_process';
import {
  CloudFormationClient,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import type { TestServer } from '../helpers/server.js';

export function cfnClient(t: TestServer): CloudFormationClient {
  return new CloudFormationClient({ ...t.clientConfig, maxAttempts: 1 });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `aws <args>` against the test server; never throws for a non-zero exit. */
export function aws(t: TestServer, args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      'aws',
      [...args, '--output', 'json'],
      { env: t.env, cwd: opts.cwd, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? ((err as NodeJS.ErrnoException & { code?: number }).code as unknown as number) ?? 1 : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

/** A signed-enough query request (the signing name routes it) with raw form fields. */
export async function rawQuery(t: TestServer, fields: Record<string, string>): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(`${t.endpoint}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      authorization:
        'AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/cloudformation/aws4_request, SignedHeaders=host, Signature=x',
    },
    body: new URLSearchParams({ Version: '2010-05-15', ...fields }).toString(),
  });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

export async function stackStatus(cfn: CloudFormationClient, name: string): Promise<string | undefined> {
  const out = await cfn.send(new DescribeStacksCommand({ StackName: name }));
  return out.Stacks?.[0]?.StackStatus;
}

/** Every event of a stack, oldest first. */
export async function allEvents(cfn: CloudFormationClient, name: string): Promise<StackEvent[]> {
  const events: StackEvent[] = [];
  let token: string | undefined;
  do {
    const page = await cfn.send(new DescribeStackEventsCommand({ StackName: name, NextToken: token }));
    events.push(...(page.StackEvents ?? []));
    token = page.NextToken;
  } while (token);
  return events.reverse();
}

/** `Logical STATUS` lines of the resource events, oldest first (handy for order assertions). */
export function eventLines(events: StackEvent[]): string[] {
  return events.map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
}

export function tpl(resources: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ AWSTemplateFormatVersion: '2010-09-09', ...extra, Resources: resources });
}

/** A stored (not emulated) resource, cheap and property-checked. */
export function queue(props: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { Type: 'AWS::SQS::Queue', Properties: props, ...extra };
}
