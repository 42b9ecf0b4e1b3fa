import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceServerPath } from '../../e2e/fixtures/paths.js'
import { cleanup, readJsonLines, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { createToken } from './gateway-wire.js'
import { modern, WITH_TASKS } from './tasks-wire.js'

// `failing_job` declares `execution.taskSupport: "required"`: it runs only as a task, so only a
// client that declared the Tasks extension may call it.

describe('a tool that runs only as a task, through the gateway', () => {
  let daemon: Daemon
  let token: string
  let record: string

  const calls = async () =>
    (await readJsonLines(record)).filter((entry) => entry.method === 'tools/call')

  beforeAll(async () => {
    record = join(await tempDir(), 'record.jsonl')
    daemon = await startInProcess({
      mcpServers: {
        conformance: {
          command: process.execPath,
          args: [conformanceServerPath, '--record', record],
          trust: true,
        },
      },
      gateway: { taskAfterMs: 300 },
    })
    await daemon.waitForStatus('conformance', 'ready')
    token = await createToken(daemon, 'task-support', ['--servers', 'conformance', '--unprefixed'])
  })
  afterAll(cleanup)

  it('is refused with 400 and -32021 for a client without the extension, before the server sees the call', async () => {
    const refused = await modern(daemon, token, 'tools/call', {
      name: 'failing_job',
      arguments: {},
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: WITH_TASKS.extensions } },
    })
    expect(refused.body.error?.message).toContain('runs only as a task')
    // The barrier: a call that may run reaches the server, and it is the only one that did.
    const greet = await modern(daemon, token, 'tools/call', { name: 'greet', arguments: {} })
    expect(greet.body.result).toMatchObject({ resultType: 'complete' })
    expect((await calls()).map((entry) => entry.name)).toEqual(['greet'])
  })

  it('becomes a task for a client that declared the extension', async () => {
    const call = await modern(
      daemon,
      token,
      'tools/call',
      { name: 'failing_job', arguments: {} },
      WITH_TASKS,
    )
    expect(call.body.result).toMatchObject({ resultType: 'task', status: 'working' })
  })
})
