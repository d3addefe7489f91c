/**
 * Overcast as a user gets it from `npm pack`: the tarball holds the build (ES module and CommonJS,
 * their types, the models and the resource-type index) and none of the repository's tooling; once
 * installed into a project shaped like `cdk init app --language typescript` (a CommonJS package,
 * its tsconfig and jest configuration) the `overcast` bin runs, `require` and `import` both load
 * it, `tsc` type-checks a test that imports it, and a test that deploys a CDK stack of S3 Tables
 * resources in-process and checks it with the SDK passes under jest with ts-jest, jest with
 * @swc/jest (today's template) and vitest. The project is installed offline from npm's cache
 * (temp-project.ts), once for all of these.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProject, REPO, run, type Run } from './temp-project.js';

const FIXTURE = join(import.meta.dirname, 'cdk-app');

let work: string;
let project: string;
let tarball: string;
let files: string[];

/** The command's output when it failed, so that the assertion shows why. */
function ok(r: Run): string {
  return r.code === 0 ? 'ok' : `exit ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`;
}

interface JestReport {
  success: boolean;
  numPassedTests: number;
  numTotalTests: number;
  testResults: { message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

async function jest(config: string): Promise<{ run: Run; report: JestReport }> {
  const r = await run(process.execPath, ['node_modules/jest/bin/jest.js', '--config', config, '--ci', '--json'], project);
  return { run: r, report: JSON.parse(r.stdout || '{}') as JestReport };
}

function failuresOf(report: JestReport): string[] {
  return (report.testResults ?? []).flatMap((t) => [t.message, ...t.assertionResults.flatMap((a) => a.failureMessages)]).filter(Boolean);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'overcast-pack-'));
  // `npm test` has just built dist/; packing without scripts neither rebuilds nor races the other test files reading it.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO);
  expect(ok(pack)).toBe('ok');
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, info!.filename);
  files = info!.files.map((f) => f.path);
  project = join(work, 'analytics');
  const npm = await installProject(project, {
    manifest: { name: 'analytics', version: '0.1.0', bin: { analytics: 'bin/analytics.js' }, scripts: { build: 'tsc', test: 'jest' } },
    dependencies: ['aws-cdk-lib', 'constructs'],
    devDependencies: ['@aws-sdk/client-s3tables', '@swc/core', '@swc/jest', '@types/jest', '@types/node', 'jest', 'ts-jest', 'typescript', 'vitest'],
    tarball,
    files: FIXTURE,
  });
  expect(ok(npm)).toBe('ok');
}, 300_000);

// The temporary project holds aws-cdk-lib's tens of thousands of files: on a busy machine removing
// them takes longer than vitest's default hook limit.
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
}, 300_000);

describe('the packed tarball', () => {
  it('holds the ES module and CommonJS builds, their types, the bin, the models and the templates — and no tests, benchmarks, CI or sources', () => {
    for (const path of [
      'package.json',
      'README.md',
      'bin/overcast.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/bundle/main.js',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
      'models/cfn-spec.json',
      'models/cfn-spec.offsets',
      'models/s3tables.json',
      'templates/quick-start.yaml',
    ]) {
      expect(files, path).toContain(path);
    }
    const strays = files.filter((f) => /^(test|bench|\.ci|src|scripts|node_modules)\/|\.map$|tsbuildinfo|^tsconfig|^vitest/.test(f));
    expect(strays).toEqual([]);
  });

  it('installs a working bin', async () => {
    const version = await run(join(project, 'node_modules', '.bin', 'overcast'), ['--version'], project);
    expect(ok(version)).toBe('ok');
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const env = await run(join(project, 'node_modules', '.bin', 'overcast'), ['env'], project);
    expect(env.stdout).toContain('export AWS_ENDPOINT_URL=http://127.0.0.1:4566');
  });

  it('loads with require (the CommonJS build) and with import (the ES module build) in plain Node', async () => {
    const cjs = await run(process.execPath, ['-e', "const o = require('overcast'); console.log(require.resolve('overcast'), typeof o.startOvercast, typeof o.DeployStackError)"], project);
    expect(ok(cjs)).toBe('ok');
    expect(cjs.stdout.trim()).toMatch(/node_modules\/overcast\/dist\/cjs\/index\.js function function$/);
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', "const o = await import('overcast'); console.log(import.meta.resolve('overcast'), typeof o.startOvercast)"],
      project,
    );
    expect(ok(esm)).toBe('ok');
    expect(esm.stdout.trim()).toMatch(/node_modules\/overcast\/dist\/index\.js function$/);
  });

  it("type-checks with the project's tsc (NodeNext, CommonJS: the require types)", async () => {
    const tsc = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], project);
    expect(ok(tsc)).toBe('ok');
  });

  it.each([
    ['ts-jest', 'jest.config.js'],
    ['@swc/jest', 'jest.swc.config.js'],
  ])('deploys a CDK stack in-process under jest with %s (CommonJS)', async (_name, config) => {
    const { run: r, report } = await jest(config);
    expect(failuresOf(report)).toEqual([]);
    expect(ok(r)).toBe('ok');
    expect(report.numTotalTests).toBe(3);
    expect(report.numPassedTests).toBe(3);
  });

  it('deploys a CDK stack in-process under vitest (ES modules)', async () => {
    const r = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=json'], project);
    const report = JSON.parse(r.stdout || '{}') as { numPassedTests?: number; numTotalTests?: number };
    expect(ok(r)).toBe('ok');
    expect([report.numPassedTests, report.numTotalTests]).toEqual([2, 2]);
  });
});
