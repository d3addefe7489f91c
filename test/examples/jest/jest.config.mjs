/**
 * The jest project of test/examples/jest, exactly the configuration the README gives: the root is
 * this folder (the config's own), so jest never sees the vitest suite; Node environment; no
 * transform — the test is plain ESM JavaScript, which jest runs as ESM in its ESM mode
 * (`NODE_OPTIONS=--experimental-vm-modules`). `overcast` resolves to the package itself through
 * its `exports` (Node's self-reference), as `node_modules/overcast` would for a user.
 */
export default { testEnvironment: 'node', testMatch: ['**/*.jest.mjs'], transform: {} };
