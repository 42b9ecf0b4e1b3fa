// MCP Inspector's CLI (an npm dev dependency, run as its own process) as an agent would use it
// through the gateway: it declares the Tasks extension on every request, and its call of a tool
// that waits for the person's confirmation still ends with the tool's result.

import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'
import { gatewayToken } from './tasks-wire.js'

const inspectorCli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
)

interface Run {
  code: number
  stdout: string
  stderr: string
}

function inspector(args: string[], home: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [inspectorCli, '--cli', ...args],
      // Its catalog and settings go to a home of its own.
      { env: { ...process.env, HOME: home }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 99
        resolve({ code, stdout, stderr })
      },
    )
  })
}

type Asked = Extract<TranscriptEvent, { type: 'confirmation.requested' }>

describe('MCP Inspector CLI through the gateway', () => {
  let daemon: Daemon
  let stream: TestStream
  let token: string
  let home: string

  beforeAll(async () => {
    daemon = await startInProcess({
      mcpServers: { plain: fixture([], { trust: false }) },
    })
    await daemon.waitForStatus('plain', 'ready')
    token = await gatewayToken(daemon, 'inspector')
    home = await tempDir('ferry-inspector-home-')
    stream = await openStream(daemon)
    stream.send({ type: 'hello', client: { kind: 'webshell', label: 'WebShell tab' } })
    await stream.subscribe()
  })
  afterAll(cleanup)

  it("gets the tool's result, not a task handle, when its call waits for the person's confirmation", async () => {
    const run = inspector(
      [
        new URL('mcp', daemon.info.url).href,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${token}`,
        '--method',
        'tools/call',
        '--tool-name',
        'mcp_plain_slow',
        '--tool-arg',
        'steps=1',
        'delayMs=0',
      ],
      home,
    )
    const asked = await waitFor(
      () => stream.events.find((e): e is Asked => e.type === 'confirmation.requested'),
      30_000,
      "the Inspector call's confirmation",
    )
    expect(asked.tool).toBe('mcp_plain_slow')
    stream.send({ type: 'answer', ref: 'allow', callId: asked.callId, outcome: 'allow_once' })
    expect((await stream.reply('allow')).ok).toBe(true)
    const { code, stdout, stderr } = await run
    expect({ code, stderr }).toMatchObject({ code: 0 })
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
    expect(stdout).not.toContain('taskId')
    const events = await daemon.events()
    expect(events.find((e) => e.type === 'call.task')).toBeUndefined()
    expect(events.find((e) => e.type === 'call.result' && e.callId === asked.callId)).toBeDefined()
  })
})
