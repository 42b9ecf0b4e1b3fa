// A bounded ring of a server's stderr lines, fed by chunks.

export class StderrRing {
  private readonly lines: string[] = []
  private partial = ''
  /** How many complete lines the server itself wrote (Ferry's notes aside), and the last one. */
  private serverLines = 0
  private lastServerLine: string | undefined

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
    for (const line of parts) {
      this.serverLines++
      this.lastServerLine = this.add(line)
    }
  }

  /** A mark to pass to `writtenSince`: how many lines the server has written so far. */
  mark(): number {
    return this.serverLines
  }

  /**
   * The last line the server itself wrote after `mark` (a line it has not ended yet counts), if it
   * wrote any: often the reason it is going away.
   */
  writtenSince(mark: number): string | undefined {
    if (this.partial.trim() !== '') return this.partial
    return this.serverLines > mark ? this.lastServerLine : undefined
  }

  note(line: string): void {
    this.add(line)
  }

  tail(count = this.maxLines): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial]
    return all.slice(-count)
  }

  private add(raw: string): string {
    const line = raw.replace(/\r$/, '')
    const kept = line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line
    this.lines.push(kept)
    this.onLine(kept)
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines)
    return kept
  }
}
