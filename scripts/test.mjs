// The test command (`pnpm test [vitest arguments]`). The programs the tests drive are installed
// while the build runs, and the tests start once both are done. The Node the conformance suite runs
// on is installed beside them: the suite's files start after the process files, by which time it
// is normally in place, and one that finds it missing installs it too (see suite-node.mjs). The
// static checks (Prettier, ESLint, the import layers, the types) start with the build at the lowest
// scheduling priority, so they take only the CPU the build and the tests leave idle; their output
// is printed in one block when they end. It fails when any step fails.

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
// The suite's tests install it themselves if this failed, and say why when they cannot.
const suiteNodeDone = step('suite node', process.execPath, ['scripts/suite-node.mjs'], {
  quiet: true,
})
const [tools, build] = await Promise.all([
  step('test tools', process.execPath, ['scripts/ensure-test-tools.mjs']),
  step('build', 'pnpm', ['run', 'build']),
])
const tests =
  tools.ok && build.ok
    ? await step('tests', 'vitest', ['run', ...process.argv.slice(2)])
    : { name: 'tests', ok: false, output: '', summary: 'tests: not run, a step before them failed' }
const suiteNode = await suiteNodeDone
if (!suiteNode.ok) process.stdout.write(`\n${suiteNode.output}`)
const checks = await checksDone
if (!checks.ok) process.stdout.write(`\n${checks.output}`)

const results = [tools, suiteNode, build, checks, tests]
process.stdout.write(`\n${results.map((result) => result.summary).join('\n')}\n`)
// The suite's Node is not a verdict of its own: its tests install it again, or fail saying why.
const verdicts = [tools, build, checks, tests]
process.exitCode = verdicts.every((result) => result.ok) ? 0 : 1
