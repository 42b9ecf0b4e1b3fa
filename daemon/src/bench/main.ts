// `pnpm bench [name ...]`: prints each benchmark's numbers and its ratio to a baseline measured in
// the same run. Nothing is asserted: shared machines are noisy, so the numbers are for reading.
// Names pick benchmarks to run; without any, all of them run in this order.

import { benchCallOverhead } from './call-overhead.js'
import { benchCommandLine } from './command-line.js'
import { benchGateway } from './gateway-bench.js'
import { benchProbeFloor } from './probe-floor.js'
import { benchProgressFlood } from './progress-flood.js'
import { benchDurability, benchFanOut, benchLargeSessions } from './sessions-bench.js'
import { benchMemory, benchStartup } from './startup-and-memory.js'
import { benchToolSearch } from './tool-search-bench.js'
import { benchTrace } from './trace-bench.js'
import { benchWebShellApps, benchWebShellEvents, benchWebShellLoad } from './webshell-bench.js'
import { benchWebShellTools } from './webshell-tools-bench.js'

const calls = Number(process.env.FERRY_BENCH_CALLS ?? 1000)

const benchmarks: Record<string, () => Promise<void>> = {
  'call-overhead': () => benchCallOverhead(calls),
  'command-line': benchCommandLine,
  startup: benchStartup,
  memory: benchMemory,
  'probe-floor': benchProbeFloor,
  'fan-out': benchFanOut,
  durability: benchDurability,
  'large-sessions': benchLargeSessions,
  'progress-flood': benchProgressFlood,
  'webshell-load': benchWebShellLoad,
  'event-to-screen': benchWebShellEvents,
  'app-start': benchWebShellApps,
  'webshell-tools': benchWebShellTools,
  gateway: benchGateway,
  'tool-search': benchToolSearch,
  trace: benchTrace,
}

const wanted = process.argv.slice(2)
const unknown = wanted.filter((name) => !(name in benchmarks))
if (unknown.length > 0) {
  console.error(
    `unknown benchmark ${unknown.join(', ')}; choose from: ${Object.keys(benchmarks).join(', ')}`,
  )
  process.exit(2)
}
for (const [name, run] of Object.entries(benchmarks)) {
  if (wanted.length === 0 || wanted.includes(name)) await run()
}
