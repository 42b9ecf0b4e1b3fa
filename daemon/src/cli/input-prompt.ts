// `ferry call`'s own prompt for a server's question (a form, a URL to visit, a sampling request)
// on the caller's terminal: line by line on stderr, closed at once when the question is answered
// elsewhere or withdrawn. A refusal from the daemon is shown and the field it names asked again.

import { Writable } from 'node:stream'
import { createInterface, type Interface } from 'node:readline/promises'
import type { InputAnswer, InputRequestedEvent } from '../protocol/index.js'
import { openInBrowser } from './browser.js'
import type { CliIo } from './context.js'
import {
  displayValue,
  fieldHint,
  fieldNamed,
  formContent,
  initialValues,
  isMasked,
  parseTyped,
  readForm,
  type FormField,
  type FormValues,
} from './input-form.js'
import { samplingLines, urlOrigin } from './input-view.js'
import { terminalText } from './terminal-text.js'

/** How the daemon took an answer: taken, refused with a reason to fix, or the question is gone. */
export type SendResult = { ok: true } | { ok: false; message: string; closed: boolean }

export type SendAnswer = (answer: InputAnswer) => Promise<SendResult>

/** Where a masked field's typing is echoed: nowhere. */
const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() })

class Asker {
  constructor(
    private readonly signal: AbortSignal,
    readonly io: CliIo,
  ) {}

  say(text: string): void {
    this.io.stderr.write(`${terminalText(text)}\n`)
  }

  /**
   * One line typed by the person, starting from `prefill`; with `masked`, nothing typed is shown
   * (a `format: password` field). Each line has its interface, so a masked one can echo nowhere.
   */
  async line(question: string, prefill = '', masked = false): Promise<string> {
    const prompt = terminalText(question)
    if (masked) this.io.stderr.write(prompt)
    const rl: Interface = createInterface({
      input: this.io.stdin,
      output: masked ? nowhere : this.io.stderr,
      terminal: true,
    })
    // The terminal is in raw mode while a line is read: Ctrl-C interrupts `ferry call` as it does
    // elsewhere (closing its connection cancels the call), instead of being taken by the line.
    rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'))
    try {
      const answer = rl.question(masked ? '' : prompt, { signal: this.signal })
      if (prefill !== '') rl.write(prefill)
      return await answer
    } finally {
      rl.close()
      if (masked) this.io.stderr.write('\n')
    }
  }

  /** One of `choices` by its first letter; anything else asks again. */
  async pick<K extends string>(question: string, choices: readonly K[]): Promise<K> {
    for (;;) {
      const typed = (await this.line(question)).trim().toLowerCase()
      const choice = choices.find((c) => typed !== '' && c.startsWith(typed.slice(0, 1)))
      if (choice !== undefined) return choice
    }
  }
}

function prefillOf(field: FormField, value: FormValues[string]): string {
  if (field.kind === 'choices' && Array.isArray(value)) {
    const labels = value.map((v) => displayValue(field, [v]))
    return labels.some((label) => label.includes(',')) ? value.join(', ') : labels.join(', ')
  }
  return displayValue(field, value)
}

async function askField(ask: Asker, field: FormField, values: FormValues): Promise<void> {
  const head = `${field.title}${field.required ? ' *' : ''} (${fieldHint(field)})`
  ask.say(field.description === null ? head : `${head} — ${field.description}`)
  if (field.options.length > 0) {
    const several = field.kind === 'choices' ? '   (several: comma-separated)' : ''
    ask.say(
      `  ${field.options.map((option, i) => `${i + 1}) ${option.label}`).join('  ')}${several}`,
    )
  }
  for (;;) {
    const parsed = parseTyped(
      field,
      await ask.line(`  ${field.key}: `, prefillOf(field, values[field.key]), isMasked(field)),
    )
    if ('error' in parsed) {
      ask.say(`  ${parsed.error}`)
      continue
    }
    values[field.key] = parsed.value
    return
  }
}

async function answerForm(ask: Asker, input: InputRequestedEvent, send: SendAnswer): Promise<void> {
  const { fields, unsupported } = readForm(input.requestedSchema)
  if (unsupported.length > 0) ask.say(`(not shown, not a simple field: ${unsupported.join(', ')})`)
  const start = await ask.pick('[a]nswer, [d]ecline or [c]ancel? ', ['answer', 'decline', 'cancel'])
  if (start !== 'answer') return void (await finish(ask, send, { action: start }))
  ask.say('* required; Enter keeps what is typed, Ctrl-U clears it')
  const values = initialValues(fields)
  for (const field of fields) await askField(ask, field, values)
  for (;;) {
    const next = await ask.pick('[s]end, [e]dit a field, [d]ecline or [c]ancel? ', [
      'send',
      'edit',
      'decline',
      'cancel',
    ])
    if (next === 'edit') {
      ask.say(
        fields
          .map((field, i) => `${i + 1}) ${field.title}: ${displayValue(field, values[field.key])}`)
          .join('\n'),
      )
      const typed = (await ask.line('field number: ')).trim()
      const field = fields[Number(typed) - 1] ?? fields.find((f) => f.key === typed)
      if (field !== undefined) await askField(ask, field, values)
      continue
    }
    const answer: InputAnswer =
      next === 'send'
        ? { action: 'accept', content: formContent(fields, values) }
        : { action: next }
    const result = await send(answer)
    if (result.ok || result.closed) {
      if (!result.ok) ask.say(`not taken: ${result.message}`)
      return
    }
    ask.say(`refused: ${result.message}`)
    const field = fieldNamed(result.message, fields)
    if (field !== undefined && answer.action === 'accept') await askField(ask, field, values)
  }
}

async function answerUrl(ask: Asker, input: InputRequestedEvent, send: SendAnswer): Promise<void> {
  ask.say(`  ${input.url ?? ''}`)
  ask.say(`  leads to ${urlOrigin(input)}`)
  for (;;) {
    const choice = await ask.pick(
      '[o]pen it in the browser, [a]ccept (I have been there), [d]ecline or [c]ancel? ',
      ['open', 'accept', 'decline', 'cancel'],
    )
    if (choice !== 'open') return void (await finish(ask, send, { action: choice }))
    ask.say(await openInBrowser(input.url ?? '', ask.io.env))
  }
}

async function answerSampling(
  ask: Asker,
  input: InputRequestedEvent,
  send: SendAnswer,
): Promise<void> {
  if (input.sampling !== undefined)
    for (const line of samplingLines(input.sampling)) ask.say(`  ${line}`)
  for (;;) {
    const choice = await ask.pick("[r]eply in the model's place, [d]ecline or [c]ancel? ", [
      'reply',
      'decline',
      'cancel',
    ])
    if (choice !== 'reply') return void (await finish(ask, send, { action: choice }))
    ask.say('the reply, line by line; an empty line ends it')
    const suggested = input.sampling?.suggestedReply?.split('\n') ?? []
    const lines: string[] = []
    for (;;) {
      const line = await ask.line('  > ', suggested[lines.length] ?? '')
      if (line === '') break
      lines.push(line)
    }
    const result = await send({ action: 'accept', content: { text: lines.join('\n') } })
    if (result.ok || result.closed) {
      if (!result.ok) ask.say(`not taken: ${result.message}`)
      return
    }
    ask.say(`refused: ${result.message}`)
  }
}

async function finish(ask: Asker, send: SendAnswer, answer: InputAnswer): Promise<void> {
  const result = await send(answer)
  if (!result.ok) ask.say(`not taken: ${result.message}`)
}

/**
 * Asks the person on this terminal and sends the answer; returns when it was taken, or at once
 * (without sending) once `signal` aborts because the question closed elsewhere.
 */
export async function promptInput(
  input: InputRequestedEvent,
  send: SendAnswer,
  signal: AbortSignal,
  io: CliIo,
): Promise<void> {
  if (signal.aborted) return
  const ask = new Asker(signal, io)
  ask.say(`\n"${input.server}" asks: ${input.message}`)
  try {
    if (input.kind === 'url') await answerUrl(ask, input, send)
    else if (input.kind === 'sampling') await answerSampling(ask, input, send)
    else await answerForm(ask, input, send)
  } catch (error) {
    if (!signal.aborted) throw error
  }
}
