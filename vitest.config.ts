import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@riff/source'] },
  ssr: { resolve: { conditions: ['@riff/source'] } },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // Two test files at a time on the project's 2-core machine: each file's server and its queries
    // run in the file's own process (PGlite included), while the shared Prism runs in another, so
    // one file at a time left a core idle much of the time. Every file has its own database
    // (a PGlite copy, or its own rows and job schema on PostgreSQL) and its own rate-limit prefix.
    maxWorkers: 2,
    minWorkers: 1,
    // A worker keeps the modules it has loaded from one test file to the next: every file builds its
    // own app (createRiff) on its own database, so nothing a test can see lives in module state, and
    // loading the server's few hundred modules again for each file cost a fifth of the suite's CPU.
    isolate: false,
    // a file shares the machine with another: a test's budget allows for that
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
