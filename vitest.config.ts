import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Test files about processes: they start daemons or terminals as processes of their own, signal
 * them, or change what a process holds (its environment, limits, signal handlers). Each runs in a
 * fresh worker. Every other file runs in a worker that earlier files used, so the modules they share
 * (the daemon, the SDK, playwright) load once per worker instead of once per file.
 */
const PROCESS_FILES = [
  'daemon/test/attach-tui.test.ts',
  'daemon/test/cli.test.ts',
  'daemon/test/closed-pipes.test.ts',
  'daemon/test/compaction.test.ts',
  'daemon/test/conformance-client.test.ts',
  'daemon/test/connections.test.ts',
  'daemon/test/crash.test.ts',
  'daemon/test/environment-and-names.test.ts',
  'daemon/test/gateway-tasks.test.ts',
  'daemon/test/grant-scope.test.ts',
  'daemon/test/host-configs.test.ts',
  'daemon/test/incomplete-answers.test.ts',
  'daemon/test/input-terminal.test.ts',
  'daemon/test/inputs-everything.test.ts',
  'daemon/test/inputs-fixture.test.ts',
  'daemon/test/internal-errors.test.ts',
  'daemon/test/restart.test.ts',
  'daemon/test/roots.test.ts',
  'daemon/test/security.test.ts',
  'daemon/test/sessions.test.ts',
  'daemon/test/stream.test.ts',
  'daemon/test/terminal-output.test.ts',
  'daemon/test/transcript-bounds.test.ts',
  'daemon/test/workspace-settings.test.ts',
  'e2e/test/fixtures.test.ts',
  'e2e/test/webshell-daemon-down.test.ts',
  'e2e/test/webshell-servers.test.ts',
]

const ALL_FILES = [
  'daemon/src/**/*.test.ts',
  'webshell/src/**/*.test.ts',
  'daemon/test/**/*.test.ts',
  'e2e/test/**/*.test.ts',
]

/** What every test file gets, in either kind of worker. */
const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // A poll waits on what a loaded machine delivers late; one that should fail still fails.
  expect: { poll: { timeout: 10_000 } },
  pool: 'forks',
} as const

/**
 * Every process file first, then the shared files. A worker that ran a shared file is kept for the
 * next file only when that file is shared too, so files of the two kinds taken in turns would start
 * a fresh worker, and load the daemon and playwright again, for most shared files.
 */
class ProcessFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const isProcess = (file: TestSpecification) => file.project.name === 'process'
    return [...sorted.filter(isProcess), ...sorted.filter((file) => !isProcess(file))]
  }
}

export default defineConfig({
  test: {
    // Runs once for the run (a project that extended this would start its own).
    globalSetup: ['e2e/test/chromium-server.ts', 'daemon/test/run-dir.ts'],
    fileParallelism: true,
    sequence: { sequencer: ProcessFilesFirst },
    // A third worker keeps two cores busier, but with a second copy of the suite beside it the
    // process-level restart tests outlast their timeout.
    maxWorkers: 2,
    projects: [
      { test: { ...common, name: 'process', include: PROCESS_FILES, isolate: true } },
      {
        test: {
          ...common,
          name: 'shared',
          include: ALL_FILES,
          exclude: PROCESS_FILES,
          isolate: false,
        },
      },
    ],
  },
})
