import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Tool } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { FerryError } from '../errors.js'
import type { ClientRef } from '../protocol/index.js'
import { MAX_PROBLEMS_TEXT } from '../tools/schema-validator.js'
import { ArgumentCheck, type CallRequested } from './argument-check.js'
import { MAX_EVENT_BYTES, storedBytes } from './event-bounds.js'
import { SessionManager } from './session-manager.js'

const CLIENT: ClientRef = { id: 'c1', kind: 'cli', label: 'ferry call (pid 1)' }

function tool(inputSchema: Record<string, unknown> = {}): Tool {
  return { name: 'demo', inputSchema: { type: 'object', ...inputSchema } } as Tool
}

function requested(args: unknown): CallRequested {
  return {
    type: 'call.requested',
    callId: 'a1',
    tool: 'mcp_fx_demo',
    server: 'fx',
    serverTool: 'demo',
    arguments: args as Record<string, unknown>,
  }
}

/** The refusal's message, or undefined when the arguments pass. */
function problem(check: ArgumentCheck, schema: Tool, args: unknown): string | undefined {
  try {
    check.check(schema, requested(args), CLIENT)
    return undefined
  } catch (error) {
    if (!(error instanceof FerryError)) throw error
    expect(error.code).toBe('invalid_arguments')
    return error.message
  }
}

/** Arrays nested `levels` deep, built without recursion. */
function nested(levels: number): unknown[] {
  const outer: unknown[] = []
  let inner = outer
  for (let i = 1; i < levels; i++) {
    const next: unknown[] = []
    inner.push(next)
    inner = next
  }
  return outer
}

describe('ArgumentCheck', () => {
  it('names the field that does not fit, and passes arguments that do', () => {
    const check = new ArgumentCheck(() => {})
    const schema = tool({
      properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 0 } },
      required: ['path'],
    })
    expect(problem(check, schema, { path: 'a', depth: 2 })).toBeUndefined()
    expect(problem(check, schema, { depth: -1 })).toBe(
      "arguments do not fit the tool's input schema: arguments must have required property 'path', arguments/depth must be >= 0; see its inputSchema in the tool list",
    )
  })

  it('leaves a pattern to the server, so one that backtracks cannot stall the daemon', () => {
    const check = new ArgumentCheck(() => {})
    const schema = tool({ properties: { text: { type: 'string', pattern: '^(a+)+$' } } })
    expect(problem(check, schema, { text: 'b' })).toBeUndefined()
    // Matched by a backtracking engine, this text takes longer than any test run.
    expect(problem(check, schema, { text: `${'a'.repeat(40)}!` })).toBeUndefined()
    expect(problem(check, schema, { text: 5 })).toMatch(/: arguments\/text must be string;/)
  })

  it('leaves a schema it cannot compile to the server, and logs it once', () => {
    const logged: unknown[] = []
    const check = new ArgumentCheck((entry) => logged.push(entry))
    const schema = tool({ properties: { anything: { $ref: '#/$defs/missing' } } })
    expect(problem(check, schema, { anything: true })).toBeUndefined()
    expect(problem(check, schema, { anything: false })).toBeUndefined()
    expect(logged).toEqual([
      expect.objectContaining({ kind: 'call.schema_unchecked', tool: 'demo' }),
    ])
  })

  it('refuses arguments that are not an object', () => {
    const check = new ArgumentCheck(() => {})
    for (const args of [[1], 'text', 7, null]) {
      expect(problem(check, tool(), args)).toBe(
        'arguments must be a JSON object, such as {"text":"hi"}',
      )
    }
  })

  it('passes arguments 63 levels deep and refuses 64 and 200,000 levels without overflowing the stack', () => {
    const check = new ArgumentCheck(() => {})
    const deeper =
      'arguments nest objects and arrays deeper than 63 levels, more than a transcript keeps whole; send flatter arguments'
    expect(problem(check, tool(), { list: nested(62) })).toBeUndefined()
    expect(problem(check, tool(), { list: nested(63) })).toBe(deeper)
    expect(problem(check, tool(), { list: nested(200_000) })).toBe(deeper)
    // A cycle (only an in-process caller could make one) is as deep as it gets.
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(problem(check, tool(), cycle)).toBe(deeper)
  })

  it('cuts a reason with thousands of problems after the whole ones that fit', () => {
    const check = new ArgumentCheck(() => {})
    const schema = tool({ properties: { list: { type: 'array', items: { type: 'string' } } } })
    const message = problem(check, schema, { list: Array.from({ length: 100_000 }, () => 1) })
    expect(message?.length).toBeLessThan(MAX_PROBLEMS_TEXT + 200)
    expect(message).toMatch(
      /^arguments do not fit the tool's input schema: arguments\/list\/0 must be string, (arguments\/list\/\d+ must be string, )+and more; see its inputSchema in the tool list$/,
    )
  })

  it('passes exactly what a transcript stores whole, and refuses one byte more', async () => {
    const check = new ArgumentCheck(() => {})
    const overhead = storedBytes(requested({ text: '' }), CLIENT)
    const fits = { text: 'x'.repeat(MAX_EVENT_BYTES - overhead) }
    const over = { text: 'x'.repeat(MAX_EVENT_BYTES - overhead + 1) }
    expect(problem(check, tool(), fits)).toBeUndefined()
    expect(problem(check, tool(), over)).toBe(
      "arguments put the call's transcript event 1 KiB over the 4 MiB limit, more than a transcript keeps whole; send smaller arguments",
    )

    const stateDir = await mkdtemp(join(tmpdir(), 'ferry-arguments-'))
    const hooks = { compactAboveBytes: 64 * 1024 * 1024, onLastAnswererGone: () => {} }
    const manager = await SessionManager.load(stateDir, () => {}, hooks)
    try {
      const session = await manager.create('/work', 'arguments')
      // The largest and the deepest arguments the check passes are stored as they are.
      const deepest = { list: nested(62) }
      expect(problem(check, tool(), deepest)).toBeUndefined()
      for (const args of [fits, deepest]) {
        const stored = await session.emit(requested(args), CLIENT)
        expect(stored.truncated).toBeUndefined()
        expect(stored.arguments).toEqual(args)
      }
    } finally {
      await manager.closeAll()
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})
