// A bounded ring of a server's stderr lines, fed by chunks.

export class StderrRing {
  private readonly lines: string[] = []
  private partial = ''

  constructor(
    private readonly maxLines = 500,
    private readonly maxLineLength = 4000,
    /** Each complete line as it is kept (Ferry's notes among them). */
    private readonly onLine: (line: string) => void = () => {},
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString()
    const parts = text.split('\n')
    this.partial = (parts.pop() ?? '').slice(0, this.maxLineLength)
    for (const line of parts) this.add(line)
  }

  note(line: string): void {
    this.add(line)
  }

  tail(count = this.maxLines): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial]
    return all.slice(-count)
  }

  private add(raw: string): void {
    const line = raw.replace(/\r$/, '')
    const kept = line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line
    this.lines.push(kept)
    this.onLine(kept)
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines)
  }
}
