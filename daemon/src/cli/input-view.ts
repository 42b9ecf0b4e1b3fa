// What a terminal shows of a server's question before a person answers it: the lines of a
// sampling request (messages, system prompt, model preferences, token limit) and of a URL
// request. Pure; the lines still go through terminalText (or the TUI's Text) when printed.

import type { InputAction, InputRequestedEvent, SamplingRequest } from '../protocol/index.js'

function blockText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return String(block)
  const { type, text, mimeType, data } = block as Record<string, unknown>
  if (type === 'text' && typeof text === 'string') return text
  const size = typeof data === 'string' ? `, ${Math.round((data.length * 3) / 4 / 1024)} KB` : ''
  return `[${typeof type === 'string' ? type : 'content'}${typeof mimeType === 'string' ? ` ${mimeType}` : ''}${size}]`
}

/** One message of a sampling request as `role: text`, content that is not text summarised. */
export function messageText(message: Record<string, unknown>): string {
  const role = typeof message.role === 'string' ? message.role : 'message'
  const content = Array.isArray(message.content) ? message.content : [message.content]
  return `${role}: ${content.map(blockText).join(' ')}`
}

function preferences(prefs: Record<string, unknown> | undefined): string | null {
  if (prefs === undefined) return null
  const parts: string[] = []
  const hints = Array.isArray(prefs.hints) ? prefs.hints : []
  const names = hints
    .map((hint) => (hint as { name?: unknown } | null)?.name)
    .filter((name): name is string => typeof name === 'string')
  if (names.length > 0) parts.push(`hints ${names.join(', ')}`)
  for (const key of ['costPriority', 'speedPriority', 'intelligencePriority']) {
    const value = prefs[key]
    if (typeof value === 'number') parts.push(`${key.replace('Priority', '')} ${value}`)
  }
  return parts.length === 0 ? null : parts.join(' · ')
}

/** The request's settings, one line each: system prompt, model preferences, limits. */
export function samplingSettings(sampling: SamplingRequest): string[] {
  const lines: string[] = []
  if (sampling.systemPrompt !== undefined) lines.push(`system prompt: ${sampling.systemPrompt}`)
  const prefs = preferences(sampling.modelPreferences)
  if (prefs !== null) lines.push(`model preferences: ${prefs}`)
  const limits = [
    sampling.maxTokens === undefined ? null : `max tokens ${sampling.maxTokens}`,
    sampling.temperature === undefined ? null : `temperature ${sampling.temperature}`,
    sampling.stopSequences === undefined || sampling.stopSequences.length === 0
      ? null
      : `stop at ${sampling.stopSequences.map((s) => JSON.stringify(s)).join(', ')}`,
    sampling.includeContext === undefined ? null : `context ${sampling.includeContext}`,
  ].filter((part): part is string => part !== null)
  if (limits.length > 0) lines.push(limits.join(' · '))
  return lines
}

/** A sampling request: its messages, then its settings. */
export function samplingLines(sampling: SamplingRequest): string[] {
  return [...sampling.messages.map(messageText), ...samplingSettings(sampling)]
}

/** The origin a URL request leads to, as the daemon worked it out, else read from the URL. */
export function urlOrigin(input: Pick<InputRequestedEvent, 'url' | 'urlOrigin'>): string {
  if (input.urlOrigin !== undefined) return input.urlOrigin
  try {
    return new URL(input.url ?? '').origin
  } catch {
    return 'not a valid URL'
  }
}

const KIND_NAMES: Record<InputRequestedEvent['kind'], string> = {
  form: 'form',
  url: 'page to visit',
  sampling: 'sampling request',
}

/**
 * A question as a person knows it: whose it is, what kind and, for a form or a page, its first
 * words (a sampling request's message is Ferry's own summary, and says nothing more).
 */
export function questionName(
  input: Pick<InputRequestedEvent, 'server' | 'kind' | 'message'>,
): string {
  const words = input.kind === 'sampling' ? '' : (input.message.split('\n', 1)[0] ?? '')
  const shown = words.length > 48 ? `${words.slice(0, 47)}…` : words
  return `${input.server}'s ${KIND_NAMES[input.kind]}${shown === '' ? '' : ` "${shown}"`}`
}

const ACTIONS_SAID: Record<InputAction, string> = {
  accept: 'answered',
  decline: 'declined',
  cancel: 'cancelled',
}

/**
 * How a question ended, e.g. `fx's form "Your name?": answered by WebShell tab 3f2a`; `name` is
 * undefined for one asked before what this terminal saw.
 */
export function questionEndText(
  name: string | undefined,
  action: InputAction,
  by: string | null,
  reason?: string,
): string {
  return `${name ?? 'a question asked earlier'}: ${ACTIONS_SAID[action]}${by === null ? '' : ` by ${by}`}${reason === undefined ? '' : ` (${reason})`}`
}
