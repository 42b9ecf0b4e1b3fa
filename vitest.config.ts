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
    // Many tests wait on processes, sockets and timers; a third worker keeps two cores busy.
    maxWorkers: 3,
  },
})
