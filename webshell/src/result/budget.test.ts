// The bounds on what a result's text costs: which texts are parsed, how deep their HTML may nest,
// and how much of a long text is laid out.

import { describe, expect, it } from 'vitest'
import { htmlDepth, MAX_HTML_DEPTH, renderBounded } from './markdown.js'
import {
  lineCount,
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_LINES,
  overBudget,
} from './markdown-renderer.js'
import { chunksOf, describeSize, PREVIEW_CHARS, PREVIEW_LINES, previewOf } from './PlainText.js'

describe('the Markdown budget', () => {
  it('parses texts up to the size and line limits, and no longer ones', () => {
    expect(overBudget('**short**')).toBeUndefined()
    expect(overBudget('x'.repeat(MARKDOWN_MAX_CHARS))).toBeUndefined()
    expect(overBudget('x'.repeat(MARKDOWN_MAX_CHARS + 1))).toBe('it is over 100 KB')
    expect(overBudget('x\n'.repeat(MARKDOWN_MAX_LINES))).toBeUndefined()
    expect(overBudget('x\n'.repeat(MARKDOWN_MAX_LINES + 1))).toBe('it has over 5,000 lines')
  })

  it('counts lines as an editor does, a final newline ending the last line', () => {
    expect([
      lineCount(''),
      lineCount('a'),
      lineCount('a\n'),
      lineCount('a\nb'),
      lineCount('\n\n'),
    ]).toEqual([0, 1, 1, 2, 2])
  })

  it('refuses HTML nested deeper than the page can lay out', () => {
    expect(htmlDepth('<p>a<br />b</p><ul>\n<li>x</li>\n</ul>')).toBe(2)
    expect(renderBounded(`${'- '.repeat(MAX_HTML_DEPTH)}x`)).toEqual({
      ok: false,
      reason: `its Markdown nests ${MAX_HTML_DEPTH * 2} levels deep`,
      retry: false,
    })
    expect(renderBounded('- a\n  - b')).toMatchObject({ ok: true })
  })
})

describe('plain text', () => {
  it('shows a short text whole and a long one by its first lines or characters', () => {
    expect(previewOf('a\nb\nc')).toBeUndefined()
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')
    expect(previewOf(lines)?.split('\n')).toHaveLength(PREVIEW_LINES)
    expect(previewOf('x'.repeat(PREVIEW_CHARS * 3))).toHaveLength(PREVIEW_CHARS)
    expect(previewOf('x'.repeat(PREVIEW_CHARS + 1))).toHaveLength(PREVIEW_CHARS)
  })

  it('splits a long text into blocks of whole lines that join back into it', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n')
    const chunks = chunksOf(text)
    expect(chunks.length).toBeGreaterThan(5)
    expect(chunks.join('')).toBe(text)
    expect(chunks.slice(0, -1).every((chunk) => chunk.endsWith('\n'))).toBe(true)
    const oneLine = 'y'.repeat(200_000)
    expect(chunksOf(oneLine).join('')).toBe(oneLine)
    expect(Math.max(...chunksOf(oneLine).map((chunk) => chunk.length))).toBeLessThanOrEqual(64_000)
  })

  it('says how long a text is', () => {
    expect(describeSize('a\nb')).toBe('2 lines, 1 KB')
    expect(describeSize('z'.repeat(2_500_000))).toBe('1 line, 2.5 MB')
  })
})
