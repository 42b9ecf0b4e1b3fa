// What the attach screen does, apart from drawing: follows the session over the stream, sends
// calls, cancels and answers, and runs the prompt's commands. It writes only to the store.

import { randomBytes } from 'node:crypto'
import type {
  ConfirmationOutcome,
  InputAnswer,
  StreamCommand,
  StreamMessage,
  TranscriptEvent,
} from '../../protocol/index.js'
import { StreamClient } from '../stream-client.js'
import type { AttachStore } from './attach-store.js'
import { fetchSessions, fetchTools, serverLines, sessionLines, toolLines } from './daemon-lists.js'
import { hasCall, latestRunningCall } from './fold-events.js'
import type { AnswerState } from './open-inputs.js'
import { helpLines, parseCommand, type TuiCommand } from './parse-command.js'

export interface AttachController {
  start(): void
  stop(): void
  /** Runs one line typed at the prompt. */
  submit(line: string): void
  answer(callId: string, outcome: ConfirmationOutcome): void
  /** Answers an open question for every attached client; a refusal comes back to its prompt. */
  answerInput(inputId: string, answer: InputAnswer): void
  /** Reads the tool names again (for Tab completion). */
  refreshTools(): Promise<void>
}

export interface AttachControllerOptions {
  stateDir: string
  session: string | undefined
  readOnly: boolean
  store: AttachStore
  label: string
  onQuit: () => void
}

type Command = Extract<StreamCommand, { ref: string }>
const READ_ONLY = 'not available: this terminal attached read-only'

type Sent =
  | { kind: 'call'; callId: string; tool: string }
  | { kind: 'cancel' | 'answer' }
  | { kind: 'answer_input'; inputId: string }

/** Refusals that mean the question is gone, not that the answer needs fixing. */
const CLOSED_CODES = new Set(['conflict', 'not_found'])

export function createAttachController(options: AttachControllerOptions): AttachController {
  const { store, stateDir, readOnly } = options
  const sent = new Map<string, Sent>()
  let refs = 0
  const failed = (what: string) => (error: unknown) =>
    store.say('error', `${what}: ${error instanceof Error ? error.message : String(error)}`)

  const refreshTools = async () => {
    const tools = await fetchTools(stateDir)
    store.update((s) => ({ ...s, tools: tools.map((tool) => tool.name) }))
  }

  const onSubscribed = (session: string) => {
    store.update((s) => ({
      ...s,
      connection: 'connected',
      connectionDetail: null,
      session: { id: session, name: s.session?.id === session ? s.session.name : null },
    }))
    void fetchSessions(stateDir)
      .then((list) => {
        const name = list.find((entry) => entry.id === session)?.name ?? null
        store.update((s) =>
          s.session?.id === session ? { ...s, session: { id: session, name } } : s,
        )
      })
      .catch(failed('could not read the sessions'))
    void refreshTools().catch(failed('could not read the tools'))
  }

  const setAnswer = (inputId: string, answer: AnswerState | undefined) =>
    store.update((s) => {
      if (!s.inputs.some((input) => input.inputId === inputId)) return s
      const inputAnswers = new Map(s.inputAnswers)
      if (answer === undefined) inputAnswers.delete(inputId)
      else inputAnswers.set(inputId, answer)
      return { ...s, inputAnswers }
    })

  const onRefused = (ref: string, error: { code: string; message: string }) => {
    const { message } = error
    const what = sent.get(ref)
    sent.delete(ref)
    if (what?.kind === 'answer_input') {
      if (!CLOSED_CODES.has(error.code))
        return setAnswer(what.inputId, { state: 'refused', message })
      // Answered elsewhere, or no longer known to the daemon: the question is gone.
      store.update((s) => ({
        ...s,
        inputs: s.inputs.filter((input) => input.inputId !== what.inputId),
      }))
      return store.say('warning', `answer not taken: ${message}`)
    }
    // A call that got as far as the transcript shows its failure there.
    if (what?.kind === 'call' && hasCall(store.get().feed, what.callId)) return
    if (what?.kind === 'answer') store.say('warning', `answer not taken: ${message}`)
    else if (what?.kind === 'call') store.say('error', `/call ${what.tool}: ${message}`)
    else store.say('error', `${what?.kind === 'cancel' ? '/cancel: ' : ''}${message}`)
  }

  const onMessage = (message: StreamMessage) => {
    if (message.type === 'subscribed') onSubscribed(message.session)
    else if (message.type === 'reply') {
      if (message.ok) sent.delete(message.ref)
      else onRefused(message.ref, message.error)
    } else if (message.type === 'error') store.say('error', message.error.message)
  }

  const onEvent = (event: TranscriptEvent) => {
    store.addEvent(event)
    if (event.type === 'server.status') void refreshTools().catch(() => {})
  }

  const stream = new StreamClient({
    stateDir,
    session: options.session,
    client: { kind: 'attach', label: options.label },
    readOnly,
    onEvent,
    onMessage,
    onDisconnect: (why) => {
      // Replies to what was sent before are lost with the connection.
      const lost = [...sent.values()]
      sent.clear()
      store.update((s) => ({ ...s, connection: 'reconnecting', connectionDetail: why }))
      for (const what of lost) {
        if (what.kind === 'answer_input') {
          setAnswer(what.inputId, { state: 'refused', message: `not sent: ${why}; send it again` })
        }
      }
    },
  })

  const send = (command: Command, what: Sent): boolean => {
    if (!stream.send(command)) {
      store.say('warning', 'not connected to the daemon; try again once it is back')
      return false
    }
    sent.set(command.ref, what)
    return true
  }
  const nextRef = () => `tui-${++refs}`

  const run = (command: TuiCommand, line: string) => {
    const refuse = (text: string) => store.say('warning', `${line}: ${text}`)
    switch (command.kind) {
      case 'invalid':
        return refuse(command.message)
      case 'help':
        return store.print(line, helpLines(readOnly))
      case 'quit':
        return options.onQuit()
      case 'tools':
        return void fetchTools(stateDir)
          .then((tools) => {
            store.update((s) => ({ ...s, tools: tools.map((tool) => tool.name) }))
            store.print(line, toolLines(tools))
          })
          .catch(failed('/tools'))
      case 'servers':
        return void serverLines(stateDir)
          .then((lines) => store.print(line, lines))
          .catch(failed('/servers'))
      case 'sessions':
        return void fetchSessions(stateDir)
          .then((list) => store.print(line, sessionLines(list, store.get().session?.id)))
          .catch(failed('/sessions'))
      case 'call': {
        if (readOnly) return refuse(READ_ONLY)
        const callId = randomBytes(6).toString('hex')
        const ref = nextRef()
        const body = { tool: command.tool, arguments: command.arguments, id: callId }
        send({ type: 'call', ref, ...body }, { kind: 'call', callId, tool: command.tool })
        return
      }
      case 'cancel': {
        if (readOnly) return refuse(READ_ONLY)
        const callId = command.callId ?? latestRunningCall(store.get().feed)?.callId
        if (callId === undefined) return refuse('no running call to cancel')
        send({ type: 'cancel', ref: nextRef(), callId }, { kind: 'cancel' })
        return
      }
    }
  }

  return {
    start: () => stream.start(),
    stop: () => stream.stop(),
    submit(line) {
      const command = parseCommand(line)
      if (command !== undefined) run(command, line.trim())
    },
    answer(callId, outcome) {
      if (readOnly || store.get().answered.has(callId)) return
      if (!send({ type: 'answer', ref: nextRef(), callId, outcome }, { kind: 'answer' })) return
      store.update((s) => ({ ...s, answered: new Set([...s.answered, callId]) }))
    },
    answerInput(inputId, answer) {
      if (readOnly || store.get().inputAnswers.get(inputId)?.state === 'sending') return
      const command = { type: 'answer_input' as const, ref: nextRef(), inputId, ...answer }
      if (send(command, { kind: 'answer_input', inputId })) setAnswer(inputId, { state: 'sending' })
    },
    refreshTools,
  }
}
