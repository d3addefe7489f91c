/**
 * The CommonJS build (`dist/cjs/`, the package's `require` entry) compiles as CommonJS, every
 * module of it: most are loaded lazily, so a `require('overcast')` alone would not notice one that
 * reads `import.meta` or awaits at its top level — both syntax errors in CommonJS, which the
 * CommonJS compilation (type checks off, see tsconfig.cjs.json) lets through. Each file is compiled
 * by V8 as Node's CommonJS loader would, without running it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileFunction } from 'node:vm';
import { describe, expect, it } from 'vitest';

const CJS = join(import.meta.dirname, '..', '..', 'dist', 'cjs');

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

describe('the CommonJS build', () => {
  it('is marked CommonJS and holds the whole source tree', () => {
    expect(JSON.parse(readFileSync(join(CJS, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    const files = scripts(CJS).map((f) => relative(CJS, f));
    for (const f of ['index.js', 'cli/main.js', 'server/server.js', 'services/cloudformation/provider.js', 'package-root.js']) {
      expect(files).toContain(f);
    }
  });

  it('compiles as CommonJS, every module of it', () => {
    const failures: string[] = [];
    for (const file of scripts(CJS)) {
      try {
        compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
      } catch (err) {
        failures.push(`${relative(CJS, file)}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
