import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileLog } from './log.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function logPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-log-'))
  dirs.push(dir)
  return join(dir, 'daemon.log')
}

async function entries(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8')
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { n: number }).n)
}

async function mode(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777
}

describe('the daemon log', () => {
  it('moves to daemon.log.1 at its size bound, keeping one previous file, both 0600', async () => {
    const file = await logPath()
    const log = createFileLog(file, 500)
    for (let n = 0; n < 40; n++) log({ kind: 'test.line', n, padding: 'x'.repeat(40) })

    const [current, previous] = [await entries(file), await entries(`${file}.1`)]
    expect((await stat(file)).size).toBeLessThanOrEqual(500)
    expect((await stat(`${file}.1`)).size).toBeLessThanOrEqual(500)
    expect(await mode(file)).toBe(0o600)
    expect(await mode(`${file}.1`)).toBe(0o600)
    // The two files hold the latest lines in order, none missing between them; older ones are gone.
    const kept = [...previous, ...current]
    expect(kept.at(-1)).toBe(39)
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 40 - kept.length + i))
    // The previous file was moved when the next line would not fit.
    const lineBytes = (await readFile(file, 'utf8')).indexOf('\n') + 1
    expect((await stat(`${file}.1`)).size + lineBytes).toBeGreaterThan(500)
  })

  it('counts what an earlier run left in daemon.log toward the bound', async () => {
    const file = await logPath()
    const earlier = { kind: 'earlier', n: -1, padding: 'x'.repeat(450) }
    await writeFile(file, `${JSON.stringify(earlier)}\n`, { mode: 0o600 })
    createFileLog(file, 500)({ kind: 'test.line', n: 0 })
    expect(await entries(file)).toEqual([0])
    expect(await entries(`${file}.1`)).toEqual([-1])
  })
})
