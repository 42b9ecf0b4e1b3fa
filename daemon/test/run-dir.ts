// A directory for the whole test run, made before the first test file and removed after the
// last: what several files need once per run (the outcome of installing the conformance suite's
// Node) is kept there.

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's own directory (see run-dir.ts). */
    runDir: string
  }
}

export default async function makeRunDir(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-test-run-'))
  project.provide('runDir', dir)
  return () => rm(dir, { recursive: true, force: true })
}
