// The questions a server asks during `ferry call` on a terminal: each asked in turn on the
// caller's terminal and answered through `POST /api/inputs/{id}/answer`; a question answered
// elsewhere or withdrawn closes at once, saying by whom.

import { FerryError } from '../errors.js'
import type { CallStreamLine, InputAnswer, InputRequestedEvent } from '../protocol/index.js'
import type { CliIo } from './context.js'
import type { DaemonClient } from './daemon-client.js'
import { promptInput, type SendResult } from './input-prompt.js'
import { questionEndText, questionName } from './input-view.js'
import { terminalText } from './terminal-text.js'

/** Refusals that mean the question is gone, not that the answer needs fixing. */
const CLOSED_CODES = new Set(['conflict', 'not_found'])

export class CallInputs {
  /** Each open question's way to stop its prompt, and its name. */
  private readonly open = new Map<string, { controller: AbortController; name: string }>()
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly client: DaemonClient,
    private readonly who: { kind: 'cli'; label: string },
    private readonly io: CliIo,
  ) {}

  /** Takes the lines about questions; false for every other line. */
  handle(line: CallStreamLine): boolean {
    if ('input' in line) {
      this.ask(line.input)
      return true
    }
    if ('inputResolved' in line) {
      const { inputId, action, by } = line.inputResolved
      const open = this.open.get(inputId)
      this.open.delete(inputId)
      open?.controller.abort()
      this.io.stderr.write(`${terminalText(questionEndText(open?.name, action, by))}\n`)
      return true
    }
    return false
  }

  /** Closes what is still asked (the call ended) and waits until the terminal is free again. */
  async close(): Promise<void> {
    for (const { controller } of this.open.values()) controller.abort()
    this.open.clear()
    await this.queue
  }

  private ask(input: InputRequestedEvent): void {
    const controller = new AbortController()
    this.open.set(input.inputId, { controller, name: questionName(input) })
    const send = (answer: InputAnswer) => this.send(input.inputId, answer)
    this.queue = this.queue
      .then(() => promptInput(input, send, controller.signal, this.io))
      .catch((error: unknown) => {
        this.io.stderr.write(`ferry: ${terminalText((error as Error).message)}\n`)
      })
  }

  private async send(inputId: string, answer: InputAnswer): Promise<SendResult> {
    try {
      await this.client.post(`/inputs/${encodeURIComponent(inputId)}/answer`, {
        ...answer,
        client: this.who,
      })
      return { ok: true }
    } catch (error) {
      const code = error instanceof FerryError ? error.code : ''
      return { ok: false, message: (error as Error).message, closed: CLOSED_CODES.has(code) }
    }
  }
}
