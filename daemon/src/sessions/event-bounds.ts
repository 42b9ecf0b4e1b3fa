// Bounds on one transcript event, checked on the serialisation that is then stored and sent:
// nesting depth and size. An event over a bound is shortened, with a `[truncated: …]` marker in
// place of what was dropped, so every client sees exactly what is stored.

import type {
  CallToolResult,
  ClientRef,
  DisplayResult,
  TranscriptEvent,
  TranscriptEventBody,
} from '../protocol/index.js'
import { shorten } from './compact.js'

/** Deepest nesting of objects and arrays kept in an event, counting the event itself as 1. */
export const MAX_EVENT_DEPTH = 64
/** Largest serialised event kept as is: an App's HTML (≤ 1 MiB) and images fit well inside. */
export const MAX_EVENT_BYTES = 4 * 1024 * 1024

export interface BoundedEvent {
  event: TranscriptEvent
  /** The event's JSON text, the one serialisation stored and sent. */
  json: string
}

const DEPTH_REASON = `nesting deeper than ${MAX_EVENT_DEPTH} levels`

/** Returns `event` and its JSON, or a shortened copy that fits both bounds. */
export function boundEvent(event: TranscriptEvent): BoundedEvent {
  let bounded = event
  let json = stringify(event)
  if (json === undefined || depthOf(json) > MAX_EVENT_DEPTH) {
    bounded = { ...(cutDepth(event, 1) as TranscriptEvent), truncated: DEPTH_REASON }
    json = JSON.stringify(bounded)
  }
  const bytes = Buffer.byteLength(json)
  if (bytes <= MAX_EVENT_BYTES) return { event: bounded, json }

  const reason = `${sizeText(bytes - MAX_EVENT_BYTES)} over the ${sizeText(MAX_EVENT_BYTES)} event limit`
  const truncated = bounded.truncated === undefined ? reason : `${bounded.truncated}; ${reason}`
  const shortened = { ...shortenPayload(bounded), truncated }
  const shortenedJson = JSON.stringify(shortened)
  if (Buffer.byteLength(shortenedJson) <= MAX_EVENT_BYTES) {
    return { event: shortened, json: shortenedJson }
  }
  const dropped = { ...dropPayload(bounded, reason), truncated }
  return { event: dropped, json: JSON.stringify(dropped) }
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    // Too deep for the stack (or a value JSON cannot hold): the depth cut makes it writable.
    return undefined
  }
}

/** The deepest nesting of objects and arrays in JSON text, read without recursion. */
export function depthOf(json: string): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth)
    else if (c === 0x7d || c === 0x5d) depth--
  }
  return max
}

/** The nesting a call's arguments may have: they sit one level inside their event. */
export const MAX_ARGUMENTS_DEPTH = MAX_EVENT_DEPTH - 1

/**
 * True when objects and arrays in `value` nest deeper than `levels`, itself counting as 1. Read
 * without recursion, so no nesting can overflow the stack; a cycle counts as too deep.
 */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false
  // Only objects and arrays are kept to visit, each with its depth at the same index.
  const pending: object[] = [value]
  const depths: number[] = [1]
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const depth = depths.pop() ?? 1
    if (depth > levels) return true
    const children = Array.isArray(item) ? (item as unknown[]) : Object.values(item)
    for (const child of children) {
      if (typeof child !== 'object' || child === null) continue
      pending.push(child)
      depths.push(depth + 1)
    }
  }
  return false
}

/**
 * The bytes `body` takes once stored as an event from `client`, its seq at the largest. Only for a
 * body known to nest within the depth bound: JSON.stringify recurses.
 */
export function storedBytes(body: TranscriptEventBody, client: ClientRef | null): number {
  const time = new Date().toISOString()
  return Buffer.byteLength(JSON.stringify({ seq: Number.MAX_SAFE_INTEGER, time, client, ...body }))
}

/** A copy whose objects and arrays below the depth bound are replaced by a marker. */
function cutDepth(value: unknown, depth: number): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value !== 'object' || value === null) return value
  if (depth > MAX_EVENT_DEPTH) return `[truncated: ${DEPTH_REASON}]`
  if (Array.isArray(value)) return value.map((item) => cutDepth(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, cutDepth(v, depth + 1)]),
  )
}

/** Long strings cut and binary payloads replaced; an App keeps its HTML, which is bounded. */
function shortenPayload(event: TranscriptEvent): TranscriptEvent {
  if (event.type === 'call.result') {
    const result = shorten(event.result, 'truncated') as CallToolResult
    const display: DisplayResult =
      event.display.type === 'mcp_app'
        ? {
            ...event.display,
            toolInput: shorten(event.display.toolInput, 'truncated') as Record<string, unknown>,
            toolResult: result as unknown as Record<string, unknown>,
            fallbackText: shorten(event.display.fallbackText, 'truncated') as string,
          }
        : event.display
    return { ...event, result, display }
  }
  return shorten(event, 'truncated') as TranscriptEvent
}

/** The last resort: the payload itself replaced by the marker. */
function dropPayload(event: TranscriptEvent, reason: string): TranscriptEvent {
  const marker = `[truncated: ${reason}]`
  switch (event.type) {
    case 'call.result':
      return {
        ...event,
        result: {
          content: [{ type: 'text', text: marker }],
          ...(event.result.isError === true ? { isError: true } : {}),
        },
        display:
          event.display.type === 'mcp_app'
            ? { type: 'plain', appNotShown: `App not shown: ${reason}` }
            : event.display,
      }
    case 'call.requested':
      return { ...event, arguments: { truncated: marker } }
    default:
      // Every other event holds only short fields once its strings are cut.
      return shorten(event, 'truncated') as TranscriptEvent
  }
}

/** `bytes` for a message: `312 KiB`, `4.2 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`
  const mib = bytes / (1024 * 1024)
  return `${mib.toFixed(1).replace(/\.0$/, '')} MiB`
}
