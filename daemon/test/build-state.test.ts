// What `pnpm start` builds before starting: a part whose output is missing or older than any of
// its inputs, and nothing on a checkout built since its sources last changed.

import { mkdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { staleBuilds } from '../../scripts/build-state.mjs'
import { cleanup, tempDir } from './harness.js'

afterEach(cleanup)

const PART = { name: 'daemon', output: 'dist/out.js', inputs: ['src', 'package.json'] }

/** Writes `path` under `root` with the given modification time (seconds). */
async function file(root: string, path: string, seconds: number): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true })
  await writeFile(join(root, path), path)
  await utimes(join(root, path), seconds, seconds)
}

describe('staleBuilds', () => {
  it('says a part with no output is not built, and a fresh one needs nothing', async () => {
    const root = await tempDir('ferry-build-')
    await file(root, 'src/a/deep.ts', 1000)
    await file(root, 'package.json', 1000)
    expect(await staleBuilds(root, [PART])).toEqual(['daemon: not built'])
    await file(root, 'dist/out.js', 2000)
    await utimes(join(root, 'src/a'), 1000, 1000)
    await utimes(join(root, 'src'), 1000, 1000)
    expect(await staleBuilds(root, [PART])).toEqual([])
  })

  it('names the first input changed after the output was written, however deep', async () => {
    const root = await tempDir('ferry-build-')
    await file(root, 'src/a/deep.ts', 3000)
    await file(root, 'package.json', 1000)
    await file(root, 'dist/out.js', 2000)
    await utimes(join(root, 'src/a'), 1000, 1000)
    await utimes(join(root, 'src'), 1000, 1000)
    expect(await staleBuilds(root, [PART])).toEqual(['daemon: src changed since it was built'])
  })

  it('finds the real checkout built, as the test command leaves it', async () => {
    expect(await staleBuilds(join(import.meta.dirname, '..', '..'))).toEqual([])
  })
})
