#!/usr/bin/env node
// The server's command line from the bundle in dist/bundle/ (scripts/build-bundle.mjs), which loads faster than dist/cli/.
import('../dist/bundle/main.js').then((m) => m.main(process.argv.slice(2))).catch((err) => {
  console.error(err?.message ?? err);
  process.exit(1);
});
