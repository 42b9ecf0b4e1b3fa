// `pnpm bench`: prints each benchmark's numbers and its ratio to a baseline measured in the same
// run. Nothing is asserted: shared machines are noisy, so the numbers are for reading.

import { benchCallOverhead } from './call-overhead.js'
import { benchProbeFloor } from './probe-floor.js'
import { benchDurability, benchFanOut, benchLargeSessions } from './sessions-bench.js'
import { benchMemory, benchStartup } from './startup-and-memory.js'
import { benchWebShell } from './webshell-bench.js'

const calls = Number(process.env.FERRY_BENCH_CALLS ?? 1000)

await benchCallOverhead(calls)
await benchStartup()
await benchMemory()
await benchProbeFloor()
await benchFanOut()
await benchDurability()
await benchLargeSessions()
await benchWebShell()
