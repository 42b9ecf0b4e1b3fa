// The test command (`pnpm test [vitest arguments]`). The programs the tests drive (and the Node the
// conformance suite runs on) are installed while the build runs; the tests start once those are
// done. The static checks (Prettier, ESLint, the import layers, the types) start with the build at
// the lowest scheduling priority, so they take only the CPU the build and the tests leave idle; their
// output is printed in one block when they end. It fails when any step fails.

import { spawn, spawnSync } from 'node:child_process'

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

/**
 * `command` at the lowest priority the system offers: Linux's idle scheduling class (it runs only
 * when nothing else wants a core), else the highest niceness, else as it is.
 */
function idle(command, args) {
  const found = (tool, probe) => spawnSync(tool, probe, { stdio: 'ignore' }).status === 0
  if (process.platform === 'linux' && found('chrt', ['--idle', '0', 'true'])) {
    return ['chrt', ['--idle', '0', command, ...args]]
  }
  if (found('nice', ['-n', '19', 'true'])) return ['nice', ['-n', '19', command, ...args]]
  return [command, args]
}

const checksDone = step('checks', ...idle('pnpm', ['run', 'checks']), { quiet: true })
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
const checks = await checksDone
if (!checks.ok) process.stdout.write(`\n${checks.output}`)

const results = [tools, suiteNode, build, checks, tests]
process.stdout.write(`\n${results.map((result) => result.summary).join('\n')}\n`)
// The suite's Node is not a verdict of its own: its tests install it again, or fail saying why.
const verdicts = [tools, build, checks, tests]
process.exitCode = verdicts.every((result) => result.ok) ? 0 : 1
