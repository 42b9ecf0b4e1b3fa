import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Test files that change what their process holds (its environment) or drive terminals through a
 * tmux server of their own: each runs in a fresh worker. Every other file, including those that
 * start daemons, servers and the command line as processes, runs in a worker that earlier files
 * used, so the modules they share (the daemon, the SDK, playwright) load once per worker instead of
 * once per file.
 */
const PROCESS_FILES = [
  'daemon/test/attach-tui.test.ts',
  'daemon/test/grant-scope.test.ts',
  'daemon/test/input-terminal.test.ts',
  'daemon/test/terminal-output.test.ts',
]

/**
 * Files that run the MCP conformance suite, which spend most of their time waiting on its
 * scenarios: they start right after the process files, beside files that keep the cores busy. Left
 * to vitest, which takes the largest files first when it has no durations (a fresh clone), they
 * would run last, side by side, with the cores half idle.
 */
const SUITE_FILES = [
  'daemon/test/conformance-auth.test.ts',
  'daemon/test/conformance-client.test.ts',
  'daemon/test/gateway-conformance.test.ts',
]

const ALL_FILES = [
  'daemon/src/**/*.test.ts',
  'webshell/src/**/*.test.ts',
  'daemon/test/**/*.test.ts',
  'e2e/test/**/*.test.ts',
]

/** What every test file gets, in either kind of worker. */
const common = {
  // A guard against a test that hangs, not a bound on its speed: every wait inside a test has a
  // bound of its own that names what did not happen. The heaviest tests (a thousand calls and a
  // kill -9, three hundred sessions, a browser test of a dozen steps) take over 20 s beside a
  // second copy of the suite, and up to seven times their quiet time on a machine that busy.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // A poll waits on what a loaded machine delivers late; one that should fail still fails. Every
  // probe of a page costs the browser, playwright and the test a round of messages: half as many
  // probes as vitest's default of one every 50 ms.
  expect: { poll: { timeout: 10_000, interval: 100 } },
  pool: 'forks',
} as const

/**
 * Every process file first, then the suite files, then the other shared files. A worker that ran a
 * shared file is kept for the next file only when that file is shared too, so files of the two
 * kinds taken in turns would start a fresh worker, and load the daemon and playwright again, for
 * most shared files.
 */
class ProcessFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) =>
      file.project.name === 'process'
        ? 0
        : SUITE_FILES.some((suite) => file.moduleId.endsWith(suite))
          ? 1
          : 2
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}

export default defineConfig({
  test: {
    // Runs once for the run (a project that extended this would start its own).
    globalSetup: ['e2e/test/chromium-server.ts', 'daemon/test/run-dir.ts'],
    fileParallelism: true,
    sequence: { sequencer: ProcessFilesFirst },
    // Many files wait on processes, sockets, timers and the browser: four workers keep two cores
    // busy, where three left them idle for a third of the run.
    maxWorkers: 4,
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
