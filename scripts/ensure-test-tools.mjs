// Makes sure the programs the tests drive from outside Node are installed: tmux (the full-screen
// terminal client is tested in a real terminal) and Debian chromium's headless shell (the WebShell
// is tested in a real browser). Installs them with apt-get where that is possible (root, or
// passwordless sudo); otherwise says what to install. Named programs (`ensure-test-tools.mjs
// chromium`, for the benchmarks, which measure the browser a person runs) replace the tests' list.

import { execFileSync, spawnSync } from 'node:child_process'

const forTests = [
  { command: 'tmux', debianPackage: 'tmux' },
  { command: 'chromium-headless-shell', debianPackage: 'chromium-headless-shell' },
]
const named = process.argv.slice(2)
const needed =
  named.length === 0 ? forTests : named.map((command) => ({ command, debianPackage: command }))

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
const missing = needed.filter((tool) => !has(tool.command))

if (missing.length > 0) {
  const packages = missing.map((tool) => tool.debianPackage)
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  const sudo = !root && spawnSync('sudo', ['-n', 'true']).status === 0
  if (!has('apt-get') || (!root && !sudo)) {
    console.error(
      `The tests need ${packages.join(', ')}; install it with your package manager and run again.`,
    )
    process.exit(1)
  }
  const run = (args) =>
    execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  console.error(`Installing ${packages.join(', ')} for the tests…`)
  run(['apt-get', 'update', '-qq'])
  // Only what the programs need to run: chromium's recommended packages (a desktop's printing,
  // notifications, power and device managers) are about two hundred more to unpack, which on a
  // fresh machine took longer than the build and the static checks beside them.
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages])
}
