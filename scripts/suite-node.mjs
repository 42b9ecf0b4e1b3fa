// The Node that the MCP conformance suite runs on: it imports `fs.globSync`, which Node 20 lacks.
// Installs the registry's `node-<platform>-<arch>` package into node_modules/.cache once, and
// prints the path of its `node`. The suite's tests run this (see daemon/test/conformance-suite.ts);
// the test command runs it beside the build, so the download does not hold up the tests.

import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const VERSION = '22.23.3'
const name = `node-${process.platform}-${process.arch}`
const cache = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'ferry')
const dir = join(cache, `${name}-${VERSION}`)
const bin = join(dir, 'node_modules', name, 'bin', 'node')

if (!existsSync(bin)) {
  await mkdir(cache, { recursive: true })
  // Installed aside and moved into place whole, so a second installer at the same time, or one
  // that was stopped halfway, never leaves a partial install where the binary is looked for.
  const aside = await mkdtemp(join(cache, `${name}-`))
  try {
    execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      [
        'install',
        '--prefix',
        aside,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${name}@${VERSION}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], timeout: 170_000 },
    )
    await rename(aside, dir).catch((error) => {
      if (!existsSync(bin)) throw error
    })
  } finally {
    await rm(aside, { recursive: true, force: true })
  }
}
process.stdout.write(`${bin}\n`)
