import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A user's project that test/packaging installs and runs with its own jest and vitest.
    exclude: [...configDefaults.exclude, 'test/packaging/cdk-app/**'],
    pool: 'forks',
    // Vitest's default leaves one core free, which on a 2-core machine runs the files one at a time;
    // most of a file's time is spent waiting on child processes (the CDK CLI, the aws CLI, npm), so
    // two at a time finishes the suite in about three quarters of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // `import … from 'overcast'` (test/examples) resolves to the built dist/, loaded as Node loads it
    // for a consumer (from node_modules) rather than transformed module by module.
    server: { deps: { external: [/\/dist\//] } },
  },
});
