import { describe, expect, it } from 'vitest'
import { appName, appQuote, appText } from './app-says.js'

describe('the words of an App', () => {
  it('are named by the App, and by its call when the transcript does not say', () => {
    expect(appName({ callId: 'c1', tool: 'mcp_docs_show', server: 'docs' })).toBe(
      'App of mcp_docs_show on "docs"',
    )
    expect(appName({ callId: 'c1' })).toBe('App of call c1')
  })

  it('stay on one line, inside quotes they cannot close, cut at the limit', () => {
    expect(appText('a\nb\r\nc\rd\u2028e\u2029f\u0085g\vh\fi')).toBe('a⏎b⏎c⏎d⏎e⏎f⏎g⏎h⏎i')
    expect(appQuote('say ”done“ and „so‟ ″x″ ＂y＂')).toBe('“say "done" and "so" "x" "y"”')
    expect(appQuote('x'.repeat(10), 4)).toBe('“xxxx…”')
    expect(appQuote('')).toBe('“”')
  })
})
