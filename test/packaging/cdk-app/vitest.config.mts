// vitest for the user's ES module test only (jest takes the *.test.ts files).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['test/**/*.vitest.mts'], testTimeout: 60_000 } });
