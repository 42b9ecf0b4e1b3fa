// The attach screen's command line: what `/call`, `/cancel`, `/tools`… typed at the prompt mean.

import { parseCallArgs } from '../call-args.js'

export type TuiCommand =
  | { kind: 'call'; tool: string; arguments: Record<string, unknown> }
  | { kind: 'cancel'; callId: string | undefined }
  | { kind: 'tools' }
  | { kind: 'servers' }
  | { kind: 'sessions' }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'invalid'; message: string }

export const COMMANDS = [
  { name: '/call', usage: '/call <tool> [json]', what: 'call a tool in this session' },
  { name: '/cancel', usage: '/cancel [callId]', what: 'cancel a call (default: the latest)' },
  { name: '/tools', usage: '/tools', what: 'list the tools (and refresh Tab completion)' },
  { name: '/servers', usage: '/servers', what: 'list the servers and their status' },
  { name: '/sessions', usage: '/sessions', what: 'list the sessions' },
  { name: '/help', usage: '/help', what: 'show this help' },
  { name: '/quit', usage: '/quit', what: 'detach (the session keeps running)' },
] as const

export function helpLines(readOnly: boolean): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length))
  return [
    ...COMMANDS.map((c) => `${c.usage.padEnd(width)}  ${c.what}`),
    `Tab completes tool names after /call; Ctrl-C detaches.${readOnly ? ' Read-only: no /call, /cancel or answers.' : ''}`,
  ]
}

/** The command typed, or undefined for a blank line. */
export function parseCommand(line: string): TuiCommand | undefined {
  const text = line.trim()
  if (text === '') return undefined
  if (!text.startsWith('/')) {
    return { kind: 'invalid', message: 'commands start with /; type /help to see them' }
  }
  const match = /^(\/\S*)\s*(.*)$/s.exec(text)
  const name = match?.[1] ?? text
  const rest = match?.[2] ?? ''
  switch (name) {
    case '/call':
      return parseCall(rest)
    case '/cancel': {
      const [callId, extra] = rest.split(/\s+/).filter(Boolean)
      if (extra !== undefined) return { kind: 'invalid', message: 'usage: /cancel [callId]' }
      return { kind: 'cancel', callId }
    }
    case '/tools':
    case '/servers':
    case '/sessions':
    case '/help':
    case '/quit':
      if (rest !== '') return { kind: 'invalid', message: `${name} takes no arguments` }
      return { kind: name.slice(1) as 'tools' | 'servers' | 'sessions' | 'help' | 'quit' }
    default:
      return { kind: 'invalid', message: `unknown command ${name}; type /help to see the commands` }
  }
}

function parseCall(rest: string): TuiCommand {
  const match = /^(\S+)\s*(.*)$/s.exec(rest)
  if (match === null) return { kind: 'invalid', message: 'usage: /call <tool> [json arguments]' }
  const tool = match[1] as string
  try {
    return { kind: 'call', tool, arguments: parseCallArgs(match[2]) }
  } catch (error) {
    return { kind: 'invalid', message: (error as Error).message }
  }
}
