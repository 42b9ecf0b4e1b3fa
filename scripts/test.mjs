// The test command (`pnpm test [vitest arguments]`). The programs the tests drive are installed
// while the build and the static checks (Prettier, ESLint, the import layers, the types) run; the
// checks' output is printed in one block when they end. The tests run after them, on a machine
// left to themselves, unless the build or the install failed. It fails when any step fails.

import { spawn } from 'node:child_process'

/** Runs a command to its end; with `quiet`, its output is kept and returned instead of shown. */
function step(name, command, args, { quiet = false } = {}) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    const done = (ok, why) => {
      const seconds = Math.round((Date.now() - started) / 1000)
      resolve({ name, ok, output, summary: `${name}: ${ok ? 'passed' : why} in ${seconds} s` })
    }
    child.on('error', (error) => done(false, `could not start (${error.message})`))
    child.on('exit', (code, signal) =>
      done(code === 0, signal === null ? `failed (exit ${code})` : `stopped by ${signal}`),
    )
  })
}

const [tools, build, checks] = await Promise.all([
  step('test tools', process.execPath, ['scripts/ensure-test-tools.mjs']),
  step('build', 'pnpm', ['run', 'build']),
  step('checks', 'pnpm', ['run', 'checks'], { quiet: true }),
])
if (!checks.ok) process.stdout.write(`\n${checks.output}`)
const tests =
  tools.ok && build.ok
    ? await step('tests', 'vitest', ['run', ...process.argv.slice(2)])
    : { name: 'tests', ok: false, output: '', summary: 'tests: not run, a step before them failed' }

const results = [tools, build, checks, tests]
process.stdout.write(`\n${results.map((result) => result.summary).join('\n')}\n`)
process.exitCode = results.every((result) => result.ok) ? 0 : 1
