import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import type { StatusResponse } from '../src/protocol/index.js'
import { cleanup, fixture, readJsonLines, startDaemon, waitFor } from './harness.js'
import { openStream } from './stream-harness.js'

afterEach(cleanup)

const json = { 'content-type': 'application/json' }
const ndjson = { ...json, accept: 'application/x-ndjson' }

describe('internal errors', () => {
  it('logs every internal error of a call (REST, NDJSON, stream, and an answer that cannot be stored) with its kind, ids and stack, never the token or the arguments', async () => {
    const daemon = await startDaemon({
      mcpServers: { fx: fixture([]), fu: fixture([], { trust: false }) },
    })
    await daemon.waitForStatus('fx', 'ready')
    await daemon.waitForStatus('fu', 'ready')
    const status = (await (await daemon.api('/status')).json()) as StatusResponse
    const session = status.defaultSession
    const secret = `argument-${randomBytes(8).toString('hex')}`
    const call = (id: string, headers: Record<string, string> = json) =>
      daemon.api('/call', {
        method: 'POST',
        headers,
        body: JSON.stringify({ id, tool: 'mcp_fx_echo', arguments: { text: secret } }),
      })

    // Two questions waiting for an answer: one asked over the stream, one by an NDJSON caller.
    const person = await openStream(daemon)
    await person.subscribe()
    person.send({ type: 'call', ref: 'asked', id: 'ask-stream', tool: 'mcp_fu_slow' })
    const askedRest = await daemon.api('/call', {
      method: 'POST',
      headers: ndjson,
      body: JSON.stringify({ id: 'ask-rest', tool: 'mcp_fu_slow', interactive: true }),
    })
    await waitFor(
      () =>
        person.events.filter((e) => e.type === 'confirmation.requested').length === 2 || undefined,
    )

    // The transcript grows past the log, then no file of the daemon may grow past that size: every
    // append to the transcript fails as on a full disk, while the log still takes its lines.
    for (let i = 0; i < 4; i++) {
      const padded = await daemon.api('/call', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ tool: 'mcp_fx_echo', arguments: { text: 'p'.repeat(20_000) } }),
      })
      expect(padded.status).toBe(200)
    }
    const transcript = join(daemon.stateDir, 'sessions', session, 'events.jsonl')
    const logFile = join(daemon.stateDir, 'daemon.log')
    const limit = (await stat(transcript)).size
    expect((await stat(logFile)).size).toBeLessThan(limit / 4)
    await promisify(execFile)('prlimit', [
      '--pid',
      String(daemon.process.pid),
      `--fsize=${limit}:${limit}`,
    ])

    const rest = await call('rest-call')
    expect(rest.status).toBe(500)
    expect(await rest.json()).toEqual({
      error: { code: 'internal', message: 'internal error; see the daemon log' },
    })
    const streamed = await (await call('ndjson-call', ndjson)).text()
    expect(streamed).toContain(
      '{"error":{"code":"internal","message":"internal error; see the daemon log"}}',
    )
    person.send({
      type: 'call',
      ref: 'stream-call',
      id: 'stream-call',
      tool: 'mcp_fx_echo',
      arguments: { text: secret },
    })
    expect(await person.reply('stream-call')).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    })
    person.send({ type: 'answer', ref: 'answer', callId: 'ask-stream', outcome: 'allow_once' })
    expect(await person.reply('answer')).toMatchObject({ ok: false, error: { code: 'internal' } })
    // The call whose answer could not be stored ends instead of waiting or running unrecorded.
    expect(await person.reply('asked')).toMatchObject({ ok: false, error: { code: 'internal' } })
    const answered = await daemon.api('/calls/ask-rest/answer', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ outcome: 'allow_tool' }),
    })
    expect(answered.status).toBe(500)
    expect(await askedRest.text()).toContain('"code":"internal"')

    const lines = await readJsonLines(logFile)
    const internal = lines.filter((line) => line.kind === 'internal_error')
    for (const callId of ['rest-call', 'ndjson-call', 'stream-call', 'ask-stream', 'ask-rest']) {
      expect(internal).toContainEqual(
        expect.objectContaining({
          callId,
          where: expect.any(String),
          error: expect.stringContaining('EFBIG'),
          stack: expect.stringContaining('EFBIG'),
        }),
      )
    }
    for (const callId of ['rest-call', 'ndjson-call', 'stream-call']) {
      expect(internal).toContainEqual(expect.objectContaining({ callId, where: 'call', session }))
    }
    const text = await readFile(logFile, 'utf8')
    expect(text).not.toContain(daemon.info.token)
    expect(text).not.toContain(secret)
    expect(text).not.toContain('ppppp')
    person.ws.close()
  })
})
