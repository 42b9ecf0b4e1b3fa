// The answers to `${input:id}` placeholders a person gave with `ferry config input`, kept in Ferry's
// own file beside its user settings (`inputs.json`, an object of strings, private to the user). They
// apply to every settings file Ferry reads, a `--config` file of another host (VS Code's
// `.vscode/mcp.json`) among them, so that file never needs editing; an answer in a settings file's
// own `inputs` wins over one kept here.

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { applyEdits, modify } from 'jsonc-parser'
import { isPlainObject } from './format-path.js'
import { parseSettingsJson } from './parse-settings-json.js'

/** The answers kept in `path`; none when it does not exist. What cannot be used warns. */
export async function readInputAnswers(
  path: string,
  warnings: string[],
): Promise<Record<string, string>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    warnings.push(`${path}: cannot be read (${(error as Error).message}), its answers ignored`)
    return {}
  }
  let value: unknown
  try {
    value = parseSettingsJson(path, text)
  } catch (error) {
    warnings.push(`${(error as Error).message}; its answers ignored`)
    return {}
  }
  if (!isPlainObject(value)) {
    warnings.push(`${path}: expected an object of answers, ignored`)
    return {}
  }
  const answers: Record<string, string> = {}
  for (const [id, answer] of Object.entries(value)) {
    if (typeof answer === 'string') answers[id] = answer
    else warnings.push(`${path}: ${id}: expected a string, ignored`)
  }
  return answers
}

/**
 * Keeps `answer` for input `id` in `path`, created (with its folder) readable by the user alone when
 * missing; the rest of the file, its comments among it, stays as it was.
 */
export async function saveInputAnswer(path: string, id: string, answer: string): Promise<void> {
  let text = '{}\n'
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (!isPlainObject(parseSettingsJson(path, text))) {
    throw new Error(`${path}: expected an object of answers; fix or remove the file`)
  }
  const edited = applyEdits(
    text,
    modify(text, [id], answer, { formattingOptions: { insertSpaces: true, tabSize: 2 } }),
  )
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temp = `${path}.${process.pid}.tmp`
  await writeFile(temp, edited, { mode: 0o600 })
  await rename(temp, path)
}
