import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CallToolResult, DisplayResult, TranscriptEvent } from '../protocol/index.js'
import { MAX_EVENT_BYTES } from './event-bounds.js'
import type { Session } from './session.js'
import { SessionManager } from './session-manager.js'

const MiB = 1024 * 1024
const hooks = { compactAboveBytes: 64 * MiB, onLastAnswererGone: () => {} }

let stateDir: string
let manager: SessionManager
let session: Session

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'ferry-bounds-'))
  manager = await SessionManager.load(stateDir, () => {}, hooks)
  session = await manager.create('/work', 'bounds')
})

afterEach(async () => {
  await manager.closeAll()
  await rm(stateDir, { recursive: true, force: true })
})

function result(callId: string, value: CallToolResult, display: DisplayResult = { type: 'plain' }) {
  return session.emit({ type: 'call.result', callId, result: value, display }, null)
}

/** The session's stored lines, longest first, and its events as a fresh daemon loads them. */
async function reloaded(): Promise<{ longest: number; events: TranscriptEvent[] }> {
  const text = await readFile(join(stateDir, 'sessions', session.id, 'events.jsonl'), 'utf8')
  const longest = Math.max(...text.split('\n').map((line) => Buffer.byteLength(line)))
  await manager.closeAll()
  manager = await SessionManager.load(stateDir, () => {}, hooks)
  return { longest, events: manager.get(session.id).eventsAfter(0) }
}

describe('event bounds', () => {
  it('stores a result over the size limit with long strings cut and says so', async () => {
    const text = 'a'.repeat(5 * MiB)
    const stored = await result('big', { content: [{ type: 'text', text }] })
    expect(stored.truncated).toBe('1 MiB over the 4 MiB event limit')
    expect(stored.result.content).toEqual([
      {
        type: 'text',
        text: `${'a'.repeat(2000)}… [truncated: ${5 * MiB - 2000} more characters]`,
      },
    ])
    const { longest, events } = await reloaded()
    expect(longest).toBeLessThan(MAX_EVENT_BYTES)
    expect(events.at(-1)).toEqual(stored)
  })

  it('replaces a result that stays over the limit after cutting with a marker', async () => {
    const content = Array.from({ length: 300_000 }, (_, i) => ({ type: 'text', text: `line ${i}` }))
    const stored = await result('wide', { content } as CallToolResult, {
      type: 'mcp_app',
      serverName: 's',
      resourceUri: 'ui://s/app',
      html: '<p>app</p>',
      csp: {},
      permissions: {},
      prefersBorder: null,
      toolInput: {},
      toolResult: { content },
      fallbackText: 'line 0',
    })
    expect(stored.truncated).toMatch(/^\d+(\.\d)? MiB over the 4 MiB event limit$/)
    const reason = stored.truncated ?? ''
    expect(stored.result).toEqual({
      content: [{ type: 'text', text: `[truncated: ${reason}]` }],
    })
    expect(stored.display).toEqual({
      type: 'plain',
      appNotShown: `App not shown: ${reason}`,
    })
    expect((await reloaded()).events.at(-1)).toEqual(stored)
  })

  it('keeps an App of 1 MiB of HTML and a 2 MiB image as they are', async () => {
    const html = `<!doctype html><p>${'x'.repeat(MiB - 30)}</p>`
    const image = { type: 'image', data: 'A'.repeat(2 * MiB), mimeType: 'image/png' } as const
    const value: CallToolResult = { content: [image, { type: 'text', text: 'shown' }] }
    const display: DisplayResult = {
      type: 'mcp_app',
      serverName: 's',
      resourceUri: 'ui://s/app',
      html,
      csp: {},
      permissions: {},
      prefersBorder: null,
      toolInput: {},
      toolResult: { content: [{ type: 'text', text: 'shown' }] },
      fallbackText: 'shown',
    }
    const stored = await result('app', value, display)
    expect(stored.truncated).toBeUndefined()
    expect(stored.result).toEqual(value)
    expect(stored.display).toEqual(display)
  })

  it('bounds every kind of event, not only results', async () => {
    const nested: unknown[] = []
    let inner = nested
    for (let i = 0; i < 5000; i++) {
      const next: unknown[] = []
      inner.push(next)
      inner = next
    }
    const requested = await session.emit(
      {
        type: 'call.requested',
        callId: 'c',
        tool: 't',
        server: 's',
        serverTool: 't',
        arguments: { nested },
      },
      null,
    )
    expect(requested.truncated).toBe('nesting deeper than 64 levels')
    const notice = await session.emit(
      { type: 'notice', level: 'error', message: 'n'.repeat(5 * MiB) },
      null,
    )
    expect(notice.message).toBe(
      `${'n'.repeat(2000)}… [truncated: ${5 * MiB - 2000} more characters]`,
    )
    const failed = await session.emit(
      {
        type: 'call.failed',
        callId: 'c',
        error: { code: 'upstream_error', message: 'e'.repeat(5 * MiB) },
      },
      null,
    )
    expect(failed.truncated).toBe('1 MiB over the 4 MiB event limit')
    const { longest, events } = await reloaded()
    expect(longest).toBeLessThan(MAX_EVENT_BYTES)
    expect(events.slice(-3)).toEqual([requested, notice, failed])
  })
})
