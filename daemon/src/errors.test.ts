import { describe, expect, it } from 'vitest'
import { ErrorCode, FerryError, toFerryError, toWireError } from './errors.js'
import type { LogEntry } from './log.js'

function recorder(): { lines: LogEntry[]; log: (entry: LogEntry) => void } {
  const lines: LogEntry[] = []
  return { lines, log: (entry) => lines.push(entry) }
}

describe('toWireError', () => {
  it('passes a FerryError through as it is and logs nothing', () => {
    const { lines, log } = recorder()
    const wire = toWireError(new FerryError(ErrorCode.Conflict, 'taken'), log, { where: 'call' })
    expect(wire).toEqual({ code: 'conflict', message: 'taken' })
    expect(lines).toEqual([])
  })

  it('answers anything else as internal and logs it once with where, ids, message and stack', () => {
    const { lines, log } = recorder()
    const cause = new Error('EFBIG: file too large, write')
    const failure = toFerryError(cause, log, { where: 'call', session: 's1', callId: 'c1' })
    expect(failure.code).toBe(ErrorCode.Internal)
    expect(toWireError(failure, log, { where: 'http POST /api/call' })).toEqual({
      code: 'internal',
      message: 'internal error; see the daemon log',
    })
    expect(toWireError(cause, log, { where: 'stream call' }).code).toBe('internal')
    expect(lines).toEqual([
      {
        kind: 'internal_error',
        where: 'call',
        session: 's1',
        callId: 'c1',
        error: 'EFBIG: file too large, write',
        stack: cause.stack,
      },
    ])
  })

  it('logs a FerryError coded internal with its cause', () => {
    const { lines, log } = recorder()
    const cause = new Error('disk gone')
    toWireError(new FerryError(ErrorCode.Internal, 'state lost', { cause }), log, { where: 'x' })
    expect(lines).toMatchObject([{ kind: 'internal_error', where: 'x', error: 'disk gone' }])
  })
})
