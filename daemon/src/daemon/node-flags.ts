// The Node options the daemon's process runs with, for everything that launches it (`ferry start`,
// the login service, the benchmarks and the tests). A server flooding the daemon with progress
// makes garbage at tens of thousands of objects a second: V8's defaults answer with a heap several
// times what is live, kept after the flood. A young generation of at most 4 MB per semi-space and
// an old generation that grows by at most 20 % past what a full collection kept hold that growth
// to about 20 MB, and cost a call less CPU than `--optimize-for-size`, which shrinks the young
// generation to 1 MB and promotes what would have died young (`pnpm bench progress-flood`,
// `pnpm bench gateway`).

export const DAEMON_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=20',
]
