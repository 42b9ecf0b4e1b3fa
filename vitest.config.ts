import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'daemon/src/**/*.test.ts',
      'webshell/src/**/*.test.ts',
      'daemon/test/**/*.test.ts',
      'e2e/test/**/*.test.ts',
    ],
    globalSetup: ['e2e/test/chromium-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll waits on what a loaded machine delivers late; one that should fail still fails.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    fileParallelism: true,
    // A third worker keeps two cores busier, but with a second copy of the suite beside it the
    // process-level restart tests outlast their timeout.
    maxWorkers: 2,
  },
})
