import { describe, expect, it } from 'vitest'
import { expandVars, variablesIn } from './expand-vars.js'

const env = { HOME: '/home/me', EMPTY: '', TOKEN: 'abc' }

describe('expandVars', () => {
  it('expands bare and braced variables', () => {
    expect(expandVars('$HOME/x ${TOKEN}-y', env)).toEqual({ ok: true, value: '/home/me/x abc-y' })
  })

  it('uses the default for an unset or empty variable', () => {
    expect(expandVars('${NOPE:-def} ${EMPTY:-e} ${TOKEN:-t}', env)).toEqual({
      ok: true,
      value: 'def e abc',
    })
  })

  it('turns $$ into a literal dollar and does not expand after it', () => {
    expect(expandVars('$$TOKEN costs $$5', env)).toEqual({ ok: true, value: '$TOKEN costs $5' })
  })

  it('reports the first unset variable by name', () => {
    expect(expandVars('a ${MISSING} $ALSO', env)).toEqual({ ok: false, variable: 'MISSING' })
    expect(expandVars('$ALSO', env)).toEqual({ ok: false, variable: 'ALSO' })
  })

  it('accepts a variable that is set but empty', () => {
    expect(expandVars('[$EMPTY]', env)).toEqual({ ok: true, value: '[]' })
  })

  it('leaves a dollar that starts no variable reference as written', () => {
    expect(expandVars('cost $5, end$', env)).toEqual({ ok: true, value: 'cost $5, end$' })
  })

  it('refuses a placeholder it does not understand instead of passing it on as written', () => {
    expect(expandVars('a ${command:pick} b', env)).toEqual({
      ok: false,
      placeholder: '${command:pick}',
      reason: 'unknown',
    })
    expect(expandVars('${not valid}', env)).toMatchObject({ ok: false, reason: 'unknown' })
    expect(expandVars('${open, end', env)).toMatchObject({ ok: false, reason: 'unterminated' })
    expect(expandVars('$${literal}', env)).toEqual({ ok: true, value: '${literal}' })
  })

  it('expands ${env:NAME}, ${workspaceFolder}, ${userHome} and answered ${input:id}', () => {
    const context = { workspaceFolder: '/work/p', userHome: '/home/me', inputs: { key: 'k1' } }
    expect(
      expandVars('${env:TOKEN} ${workspaceFolder}/x ${userHome} ${input:key}', env, context),
    ).toEqual({ ok: true, value: 'abc /work/p/x /home/me k1' })
    expect(expandVars('${env:MISSING}', env, context)).toEqual({ ok: false, variable: 'MISSING' })
    expect(expandVars('${input:other}', env, context)).toEqual({
      ok: false,
      placeholder: 'other',
      reason: 'unanswered',
    })
  })

  it('never resolves names from the object prototype', () => {
    expect(expandVars('$constructor', {})).toEqual({ ok: false, variable: 'constructor' })
  })
})

describe('variablesIn', () => {
  it('names every environment variable a value would read, once, and no placeholder or input', () => {
    expect(
      variablesIn(
        '$A ${B} ${env:C} ${D:-x} $$E ${workspaceFolder} ${userHome} ${input:key} $A ${F',
      ),
    ).toEqual(['A', 'B', 'C', 'D'])
  })
})
