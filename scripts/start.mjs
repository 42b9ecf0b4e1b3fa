// `pnpm start`: builds what starting Ferry needs only when it is missing or older than what it is
// built from, then starts Ferry in the background (arguments go to `ferry start`). On a checkout
// that is already built it starts at once, as `pnpm ferry start` always does.

import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { staleBuilds } from './build-state.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

const stale = await staleBuilds(root)
if (stale.length > 0) {
  process.stdout.write(`Building (${stale.join('; ')})…\n`)
  const build = spawnSync('pnpm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) {
    process.stderr.write('ferry: the build failed; see above\n')
    process.exit(build.status ?? 1)
  }
}
const start = spawnSync(
  process.execPath,
  [`${root}/daemon/bin/ferry.js`, 'start', ...process.argv.slice(2)],
  { stdio: 'inherit' },
)
process.exit(start.status ?? 1)
