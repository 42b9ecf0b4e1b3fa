import {
  Client,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client'
import { createMcpHandler, Server } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it } from 'vitest'
import { taskCallsOn } from './task-call.js'

const TASKS = 'io.modelcontextprotocol/tasks'

/** A 2026-07-28 server that answers every call with a task, served in-process over HTTP. */
function modernTaskServer() {
  const handler = createMcpHandler(
    () => {
      const server = new Server(
        { name: 'task-only', version: '1.0.0' },
        { capabilities: { tools: {}, extensions: { [TASKS]: {} } } },
      )
      server.setRequestHandler('tools/list', () => ({
        tools: [
          {
            name: 'research',
            inputSchema: { type: 'object' },
            execution: { taskSupport: 'required' },
          },
        ],
      }))
      server.setRequestHandler(
        'tools/call',
        () =>
          ({
            resultType: 'task',
            taskId: 'task-1',
            status: 'working',
            createdAt: new Date().toISOString(),
            lastUpdatedAt: new Date().toISOString(),
            ttlMs: 60_000,
            pollIntervalMs: 100,
          }) as never,
      )
      return server
    },
    { legacy: 'reject' },
  )
  return (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init))
}

const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

async function connectModern(): Promise<Client> {
  const client = new Client(
    { name: 'probe', version: '1.0.0' },
    {
      capabilities: { extensions: { [TASKS]: {} } },
      versionNegotiation: { mode: 'auto' },
    },
  )
  clients.push(client)
  const transport = new StreamableHTTPClientTransport(new URL('http://in-process/mcp'), {
    fetch: modernTaskServer(),
  })
  await client.connect(transport)
  return client
}

describe('tasks on a 2026-07-28 connection with SDK 2.4', () => {
  it('lists tools without their execution field, so no tool shows it needs a task', async () => {
    const client = await connectModern()
    expect(client.getProtocolEra()).toBe('modern')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['research'])
    expect(tools[0]).not.toHaveProperty('execution')
  })

  it('rejects a task result, through callTool and through a raw request alike', async () => {
    const client = await connectModern()
    const unsupported = (error: unknown) =>
      error instanceof SdkError && error.code === SdkErrorCode.UnsupportedResultType
    const typed = await client.callTool({ name: 'research', arguments: {} }).catch((e) => e)
    expect(unsupported(typed)).toBe(true)
    const anything = {
      '~standard': { version: 1, vendor: 'x', validate: (value: unknown) => ({ value }) },
    } as const
    const raw = await client
      .request({ method: 'tools/call', params: { name: 'research', arguments: {} } }, anything)
      .catch((e) => e)
    expect(unsupported(raw)).toBe(true)
  })
})

describe('taskCallsOn', () => {
  it('sends tasks only to a legacy server that takes them, and none on a 2026-07-28 connection', () => {
    const declared = { tasks: { requests: { tools: { call: {} } } } }
    const none = { blocker: null, serverTasks: false }
    expect(taskCallsOn('legacy', declared)).toEqual({ asTask: true, ...none })
    expect(taskCallsOn('legacy', { tasks: { list: {} } })).toEqual({ asTask: false, ...none })
    expect(taskCallsOn('modern', declared)).toMatchObject({
      asTask: false,
      blocker: expect.stringContaining('2026-07-28'),
      serverTasks: false,
    })
  })

  it('notes a server that declares the Tasks extension, in either era', () => {
    const extension = { extensions: { 'io.modelcontextprotocol/tasks': {} } }
    expect(taskCallsOn('modern', extension).serverTasks).toBe(true)
    expect(taskCallsOn('legacy', extension).serverTasks).toBe(true)
    expect(
      taskCallsOn('modern', { extensions: { 'io.modelcontextprotocol/ui': {} } }),
    ).toMatchObject({ serverTasks: false })
  })
})
