// `--confirm-in-client`: a gateway call's confirmation is also asked of the client's own user,
// through an elicitation, alongside the WebShell and terminals. The first answer wins; the
// client's is recorded with the client as who answered, and a late one is ignored.

import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/server'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { ElicitationAsker, ElicitQuestion } from '../mcp/call-asker.js'
import type { ConfirmationOutcome, TranscriptEvent } from '../protocol/index.js'
import type { SessionHandle, SessionsApi } from '../service/ferry-service.js'
import type { ClientView } from './client-view.js'
import { gatewayClientRef } from './gateway-call.js'

export interface ClientConfirmation {
  sessions: SessionsApi
  log: Log
  view: ClientView
  args: Record<string, unknown>
  session: SessionHandle
  callId: string
  ask: ElicitationAsker
}

/**
 * The answers the client may give, worded for what they grant: an "always" answer from a gateway
 * client covers only that client's own later calls, never anyone else's.
 */
function outcomes(name: string): ReadonlyArray<{ const: ConfirmationOutcome; title: string }> {
  return [
    { const: 'allow_once', title: 'Allow this call once' },
    { const: 'allow_tool', title: `Always allow this tool for ${name}'s calls (this session)` },
    { const: 'allow_server', title: `Always allow this server for ${name}'s calls (this session)` },
    { const: 'deny', title: 'Deny' },
  ]
}

const OUTCOME_VALUES: readonly ConfirmationOutcome[] = [
  'allow_once',
  'allow_tool',
  'allow_server',
  'deny',
]

/** How much of the arguments the question shows. */
const ARGUMENTS_SHOWN = 2_000

function question(
  event: Extract<TranscriptEvent, { type: 'confirmation.requested' }>,
  args: Record<string, unknown>,
  label: string,
  name: string,
): ElicitQuestion {
  const json = JSON.stringify(args)
  const shown =
    json.length > ARGUMENTS_SHOWN ? `${json.slice(0, ARGUMENTS_SHOWN)}… (shortened)` : json
  return {
    message: `Ferry: ${label} wants to call ${event.tool} on server "${event.server}" with arguments ${shown}. Allow it? Ferry's WebShell and terminals ask too; the first answer counts.`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: { type: 'string', title: `Call ${event.tool}?`, oneOf: [...outcomes(name)] },
      },
      required: ['decision'],
    },
  }
}

function outcomeOf(answer: ElicitResult): ConfirmationOutcome | undefined {
  if (answer.action === 'decline') return 'deny'
  if (answer.action !== 'accept') return undefined
  const decision = answer.content?.decision
  return OUTCOME_VALUES.find((outcome) => outcome === decision)
}

/** Runs the call while its confirmation, once requested, is asked of the client too. */
export async function confirmInClient(
  c: ClientConfirmation,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const client = gatewayClientRef(c.view)
  let asking: AbortController | undefined
  const settle = async (answer: ElicitResult, signal: AbortSignal) => {
    if (signal.aborted) return
    const outcome = outcomeOf(answer)
    if (outcome !== undefined) {
      await c.sessions.answer(c.callId, outcome, client)
      return
    }
    // Dismissed (or an answer that is none of the four): left to the WebShell and terminals, and
    // with none of them attached the call ends as the client's cancel.
    if (c.session.answererCount() === 0) c.sessions.cancel(c.callId, client)
  }
  const unsubscribe = c.session.subscribe(c.session.info().headSeq, (event) => {
    if (!('callId' in event) || event.callId !== c.callId) return
    if (event.type === 'confirmation.requested' && asking === undefined) {
      const controller = new AbortController()
      asking = controller
      c.ask(question(event, c.args, client.label, c.view.grant.name), controller.signal)
        .then((answer) => settle(answer, controller.signal))
        .catch((error: unknown) => {
          // Another answer came first, or the call ended: nothing is lost.
          const late =
            controller.signal.aborted ||
            (error instanceof FerryError &&
              (error.code === ErrorCode.Conflict || error.code === ErrorCode.NotFound))
          if (!late) c.log({ kind: 'gateway.client_confirmation_failed', error: String(error) })
        })
    } else if (event.type === 'confirmation.resolved') asking?.abort()
  })
  try {
    return await run()
  } finally {
    unsubscribe()
    asking?.abort()
  }
}
