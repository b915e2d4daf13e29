import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@riff/source'] },
  ssr: { resolve: { conditions: ['@riff/source'] } },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
