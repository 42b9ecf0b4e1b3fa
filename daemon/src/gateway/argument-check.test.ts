import type { Tool } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { ArgumentCheck } from './argument-check.js'

function tool(inputSchema: Record<string, unknown>): Tool {
  return { name: 'demo', inputSchema: { type: 'object', ...inputSchema } } as Tool
}

describe('ArgumentCheck', () => {
  it('names the field that does not fit, and passes arguments that do', () => {
    const check = new ArgumentCheck(() => {})
    const schema = tool({
      properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 0 } },
      required: ['path'],
    })
    expect(check.problem(schema, { path: 'a', depth: 2 })).toBeUndefined()
    expect(check.problem(schema, { depth: -1 })).toBe(
      "arguments must have required property 'path', arguments/depth must be >= 0",
    )
  })

  it('leaves a pattern to the server, so one that backtracks cannot stall the daemon', () => {
    const check = new ArgumentCheck(() => {})
    const schema = tool({ properties: { text: { type: 'string', pattern: '^(a+)+$' } } })
    expect(check.problem(schema, { text: 'b' })).toBeUndefined()
    // Matched by a backtracking engine, this text takes longer than any test run.
    expect(check.problem(schema, { text: `${'a'.repeat(40)}!` })).toBeUndefined()
    expect(check.problem(schema, { text: 5 })).toBe('arguments/text must be string')
  })

  it('leaves a schema it cannot compile to the server, and logs it once', () => {
    const logged: unknown[] = []
    const check = new ArgumentCheck((entry) => logged.push(entry))
    const schema = tool({ properties: { anything: { $ref: '#/$defs/missing' } } })
    expect(check.problem(schema, { anything: true })).toBeUndefined()
    expect(check.problem(schema, { anything: false })).toBeUndefined()
    expect(logged).toEqual([expect.objectContaining({ kind: 'gateway.schema_unchecked' })])
  })
})
