// Writes a session straight into a state directory, as the daemon stores it, so benchmarks and
// tests can start a daemon on a large transcript without making every call.

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TranscriptEvent } from '../protocol/index.js'
import { encodeRecord } from '../sessions/record-codec.js'

export async function writeStoredSession(
  stateDir: string,
  id: string,
  events: Iterable<TranscriptEvent>,
): Promise<void> {
  const dir = join(stateDir, 'sessions', id)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await writeFile(
    join(dir, 'meta.json'),
    JSON.stringify({
      id,
      name: id,
      workspace: '/stored',
      isDefault: false,
      createdAt: new Date().toISOString(),
    }),
    { mode: 0o600 },
  )
  const lines: string[] = []
  for (const event of events) lines.push(encodeRecord(event))
  await writeFile(join(dir, 'events.jsonl'), lines.join(''), { mode: 0o600 })
}

/** `count` events of echo calls: each call's request, then its result. */
export function* echoCalls(
  count: number,
  text: (seq: number) => string,
): Generator<TranscriptEvent> {
  const client = { id: 'stored', kind: 'cli' as const, label: 'ferry call (pid 1)' }
  for (let seq = 1; seq <= count; seq += 2) {
    const time = new Date().toISOString()
    const callId = `call${seq}`
    yield {
      seq,
      time,
      client,
      type: 'call.requested',
      callId,
      tool: 'mcp_fx_echo',
      server: 'fx',
      serverTool: 'echo',
      arguments: { text: text(seq) },
    }
    yield {
      seq: seq + 1,
      time,
      client,
      type: 'call.result',
      callId,
      result: { content: [{ type: 'text', text: text(seq) }] },
      display: { type: 'plain' },
    }
  }
}
