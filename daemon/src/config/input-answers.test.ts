import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readInputAnswers, saveInputAnswer } from './input-answers.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function answersFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-answers-'))
  dirs.push(dir)
  return join(dir, 'ferry', 'inputs.json')
}

describe('input answers', () => {
  it('creates the file and its folder, and keeps comments and other answers when it adds one', async () => {
    const file = await answersFile()
    await saveInputAnswer(file, 'one', 'first')
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ one: 'first' })
    await writeFile(file, '{\n  // kept\n  "one": "first",\n}\n')
    await saveInputAnswer(file, 'two', 'second')
    await saveInputAnswer(file, 'one', 'again')
    const text = await readFile(file, 'utf8')
    expect(text).toContain('// kept')
    expect(await readInputAnswers(file, [])).toEqual({ one: 'again', two: 'second' })
  })

  it('reads none from a missing file, and warns of what it cannot use without failing', async () => {
    const file = await answersFile()
    expect(await readInputAnswers(file, [])).toEqual({})
    await saveInputAnswer(file, 'good', 'yes')
    await writeFile(file, '{ "good": "yes", "bad": 3 }')
    const warnings: string[] = []
    expect(await readInputAnswers(file, warnings)).toEqual({ good: 'yes' })
    expect(warnings).toEqual([`${file}: bad: expected a string, ignored`])
    await writeFile(file, '{ "good": ')
    const broken: string[] = []
    expect(await readInputAnswers(file, broken)).toEqual({})
    expect(broken[0]).toMatch(/^.*inputs\.json:1:\d+: invalid JSON .*; its answers ignored$/)
    await expect(saveInputAnswer(file, 'x', 'y')).rejects.toThrow(/invalid JSON/)
  })
})
