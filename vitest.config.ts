import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A user's project that test/packaging installs and runs with its own jest and vitest.
    exclude: [...configDefaults.exclude, 'test/packaging/cdk-app/**'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // `import … from 'overcast'` (test/examples) resolves to the built dist/, loaded as Node loads it
    // for a consumer (from node_modules) rather than transformed module by module.
    server: { deps: { external: [/\/dist\//] } },
  },
});
