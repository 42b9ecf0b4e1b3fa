// The test command (`pnpm test [vitest arguments]`). The programs the tests drive (and the Node the
// conformance suite runs on) are installed while the build and the static checks (format, lint, the
// import layers, the types) run; the checks' output is printed in one block when they end. The tests
// run after them, on a machine left to themselves, unless the build or the install failed. It fails
// when any step fails.

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

const [tools, suiteNode, build, checks] = await Promise.all([
  step('test tools', process.execPath, ['scripts/ensure-test-tools.mjs']),
  // The suite's tests install it themselves if this failed, and say why when they cannot.
  step('suite node', process.execPath, ['scripts/suite-node.mjs'], { quiet: true }),
  step('build', 'pnpm', ['run', 'build']),
  step('checks', 'pnpm', ['run', 'checks'], { quiet: true }),
])
if (!checks.ok) process.stdout.write(`\n${checks.output}`)
if (!suiteNode.ok) process.stdout.write(`\n${suiteNode.output}`)
const tests =
  tools.ok && build.ok
    ? await step('tests', 'vitest', ['run', ...process.argv.slice(2)])
    : { name: 'tests', ok: false, output: '', summary: 'tests: not run, a step before them failed' }

const results = [tools, suiteNode, build, checks, tests]
process.stdout.write(`\n${results.map((result) => result.summary).join('\n')}\n`)
// The suite's Node is not a verdict of its own: its tests install it again, or fail saying why.
const verdicts = [tools, build, checks, tests]
process.exitCode = verdicts.every((result) => result.ok) ? 0 : 1
