import { describe, expect, it } from 'vitest'
import { helpLines, parseCommand } from './parse-command.js'

describe('parseCommand', () => {
  it('reads /call with a tool and JSON arguments, which may contain spaces', () => {
    expect(parseCommand('/call mcp_fx_slow {"steps": 5, "delayMs": 200}')).toEqual({
      kind: 'call',
      tool: 'mcp_fx_slow',
      arguments: { steps: 5, delayMs: 200 },
    })
    expect(parseCommand('  /call mcp_fx_echo  ')).toEqual({
      kind: 'call',
      tool: 'mcp_fx_echo',
      arguments: {},
    })
  })

  it('explains bad /call input', () => {
    expect(parseCommand('/call')).toMatchObject({ kind: 'invalid', message: /usage/ })
    expect(parseCommand('/call t {nope')).toMatchObject({
      kind: 'invalid',
      message: /not valid JSON/,
    })
    expect(parseCommand('/call t [1]')).toMatchObject({ kind: 'invalid', message: /JSON object/ })
  })

  it('reads /cancel with and without a call id', () => {
    expect(parseCommand('/cancel')).toEqual({ kind: 'cancel', callId: undefined })
    expect(parseCommand('/cancel abc123')).toEqual({ kind: 'cancel', callId: 'abc123' })
    expect(parseCommand('/cancel a b')).toMatchObject({ kind: 'invalid' })
  })

  it('reads the commands without arguments and refuses arguments to them', () => {
    for (const name of ['tools', 'servers', 'sessions', 'help', 'quit'] as const) {
      expect(parseCommand(`/${name}`)).toEqual({ kind: name })
    }
    expect(parseCommand('/tools now')).toMatchObject({ kind: 'invalid' })
  })

  it('ignores a blank line and points elsewhere for anything else', () => {
    expect(parseCommand('   ')).toBeUndefined()
    expect(parseCommand('hello')).toMatchObject({ kind: 'invalid', message: /start with \// })
    expect(parseCommand('/frobnicate')).toMatchObject({ kind: 'invalid', message: /unknown/ })
  })

  it('mentions the read-only limits in the help of a read-only terminal', () => {
    expect(helpLines(true).join('\n')).toMatch(/Read-only/)
    expect(helpLines(false).join('\n')).not.toMatch(/Read-only/)
  })
})
