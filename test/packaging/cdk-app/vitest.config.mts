import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['test/**/*.vitest.mts'], testTimeout: 60_000 } });
