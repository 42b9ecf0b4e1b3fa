// Small statistics helpers for the benchmarks.

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

export function ms(value: number): string {
  return `${value.toFixed(2)} ms`
}
