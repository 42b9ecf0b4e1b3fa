// The test command (`pnpm test [vitest arguments]`). The build and the installs (the programs the
// tests drive, the Node the conformance suite runs on) come first, side by side; the tests follow
// unless the build or the programs' install failed. The static checks (Prettier, ESLint, the import
// layers, the types) start with the build at the lowest CPU priority, so they run on what the build
// and the tests leave idle instead of taking time from them; their output is printed in one block
// when they end. It fails when any step fails.

import { spawn } from 'node:child_process'
import { setPriority } from 'node:os'

/**
 * Runs a command to its end; with `quiet`, its output is kept and returned instead of shown; with
 * `idle`, at the lowest CPU priority, which the processes it starts inherit.
 */
function step(name, command, args, { quiet = false, idle = false } = {}) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
    if (idle && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19)
      } catch {}
    }
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

const checking = step('checks', 'pnpm', ['run', 'checks'], { quiet: true, idle: true })
const [tools, suiteNode, build] = await Promise.all([
  step('test tools', process.execPath, ['scripts/ensure-test-tools.mjs']),
  // The suite's tests install it themselves if this failed, and say why when they cannot.
  step('suite node', process.execPath, ['scripts/suite-node.mjs'], { quiet: true }),
  step('build', 'pnpm', ['run', 'build']),
])
if (!suiteNode.ok) process.stdout.write(`\n${suiteNode.output}`)
const tests =
  tools.ok && build.ok
    ? await step('tests', 'vitest', ['run', ...process.argv.slice(2)])
    : { name: 'tests', ok: false, output: '', summary: 'tests: not run, a step before them failed' }
const checks = await checking
if (!checks.ok) process.stdout.write(`\n${checks.output}`)

const results = [tools, suiteNode, build, checks, tests]
process.stdout.write(`\n${results.map((result) => result.summary).join('\n')}\n`)
// The suite's Node is not a verdict of its own: its tests install it again, or fail saying why.
const verdicts = [tools, build, checks, tests]
process.exitCode = verdicts.every((result) => result.ok) ? 0 : 1
