/**
 * How the user runs `overcast`, so that what Overcast tells them to type works as typed: `overcast`
 * when this very bin is on their PATH (a global install, `npm link`), `npx overcast` when it is a
 * project's dependency (npm put the project's node_modules/.bin on PATH to run it), and
 * `node <path>/bin/overcast.js` otherwise — as from a checkout, where `npx overcast` would install
 * the checkout into npm's cache and rebuild it before answering.
 */
import { realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function selfCommand(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1], cwd = process.cwd()): string {
  const self = script ? real(script) : undefined;
  if (!self) return 'overcast';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || real(join(dir, 'overcast')) !== self) continue;
    return /node_modules[\\/]\.bin[\\/]?$/.test(dir) ? 'npx overcast' : 'overcast';
  }
  const rel = relative(cwd, self);
  const shown = !rel.startsWith('..') && !isAbsolute(rel) ? rel : self;
  return `node ${/^[\w./@+-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`}`;
}
