// The Node options the daemon's process runs with, for everything that launches it (`ferry start`,
// the login service, the benchmarks and the tests). A background daemon favours a small heap over
// peak speed: with V8's `--optimize-for-size`, a server flooding it with progress for a minute grows
// its RSS by about 9 MB instead of about 80 MB (`pnpm bench progress-flood`).

export const DAEMON_NODE_FLAGS: readonly string[] = ['--optimize-for-size']
