// A text progress bar: filled cells for a known total, a count when the total is unknown.

export function progressBar(progress: number, total: number | undefined, width: number): string {
  const cells = Math.max(1, Math.floor(width))
  if (total === undefined || !(total > 0)) return `${'░'.repeat(cells)} ${progress}`
  const ratio = Math.min(1, Math.max(0, progress / total))
  const filled = Math.round(ratio * cells)
  return `${'█'.repeat(filled)}${'░'.repeat(cells - filled)} ${progress}/${total}`
}
