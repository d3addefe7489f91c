/**
 * Proof that the in-process API is usable from jest as well as vitest: runs the jest project in
 * test/examples/jest (its own config, an ESM `.jest.mjs` test importing 'overcast' and deploying a
 * CDK stack) the way the README tells a user to — jest's CLI with
 * `NODE_OPTIONS=--experimental-vm-modules`, no transform — and checks jest's `--json` report: every
 * test ran and passed, and jest exited by itself (nothing left open after `stop()`). The jest test
 * starts its own in-process Overcast, so this file starts no server.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const JEST_BIN = createRequire(import.meta.url).resolve('jest/bin/jest');
const CONFIG = fileURLToPath(new URL('./jest/jest.config.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface JestReport {
  success: boolean;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
  numTotalTests: number;
  numPassedTests: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * jest's CLI on the example project; `--ci` so that nothing is written, no `--forceExit`. The
 * first test's Template.fromStack loads aws-cdk-lib, which can take jest longer than its default 5 s
 * on a machine busy with the rest of the suite.
 */
function runJest(): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [JEST_BIN, '--config', CONFIG, '--ci', '--json', '--testTimeout', '60000'],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr });
      },
    );
  });
}

describe('the jest example', () => {
  it('passes under jest in ESM mode, importing overcast as a consumer does', async () => {
    const run = await runJest();

    const report = JSON.parse(run.stdout) as JestReport;
    const failures = report.testResults.flatMap((r) => [r.message, ...r.assertionResults.flatMap((a) => a.failureMessages)]);
    expect(failures.filter(Boolean)).toEqual([]);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
    expect(report.success).toBe(true);
    expect(report.numTotalTestSuites).toBe(1);
    expect(report.testResults.map((r) => [r.name.replace(/\\/g, '/').split('/').slice(-2).join('/'), r.status])).toEqual([
      ['jest/analytics-stack.jest.mjs', 'passed'],
    ]);
    expect(report.testResults[0]!.assertionResults.map((a) => [a.fullName, a.status])).toEqual([
      ['the Analytics stack, under jest creates the table bucket, the namespace and the Iceberg table', 'passed'],
      ['the Analytics stack, under jest rejects with a DeployStackError carrying the rollback reasons', 'passed'],
      ['the Analytics stack, under jest leaves nothing behind once deleted', 'passed'],
    ]);
    // Without the ESM mode jest would refuse the `.mjs` test ("Must use import to load ES Module").
    expect(run.stderr).toContain('VM Modules is an experimental feature');
  });
});
