// Asks for a confirmation on the caller's own terminal: once, always this tool, always this
// server (for the session), or deny, closed at once when someone else answers first; and plain
// yes-or-no questions.

import { createInterface } from 'node:readline/promises'
import { answerForKey } from '../protocol/confirmation-answers.js'
import type { ConfirmationOutcome } from '../protocol/index.js'
import type { CliIo } from './context.js'
import { terminalText } from './terminal-text.js'

export function canPrompt(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true
}

/** The person's answer, or undefined when `signal` ended the prompt first (answered elsewhere). */
export async function promptConfirmation(
  io: CliIo,
  tool: string,
  server: string,
  signal: AbortSignal,
): Promise<ConfirmationOutcome | undefined> {
  const rl = createInterface({ input: io.stdin, output: io.stderr })
  const question = terminalText(
    `Allow ${tool} on "${server}"? [a]llow once, always this [t]ool, always this [s]erver, [d]eny: `,
  )
  try {
    for (;;) {
      const answer = (await rl.question(question, { signal })).trim().toLowerCase()
      const choice = answer === '' ? undefined : answerForKey(answer.slice(0, 1))
      if (choice !== undefined) return choice.outcome
    }
  } catch (error) {
    if (signal.aborted) return undefined
    throw error
  } finally {
    rl.close()
  }
}

/** A yes-or-no question on the terminal; only `y` or `yes` is yes. */
export async function promptYesNo(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr })
  try {
    const answer = (await rl.question(terminalText(`${question} [y/N] `))).trim().toLowerCase()
    return answer === 'y' || answer === 'yes'
  } finally {
    rl.close()
  }
}
