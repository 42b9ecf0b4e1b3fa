// Markdown from tool results must never run script, load remote content or navigate this page.

import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown.js'

describe('renderMarkdown', () => {
  it('passes plain text through as a paragraph', () => {
    expect(renderMarkdown('Hello, world')).toBe('<p>Hello, world</p>')
  })

  it('escapes script tags', () => {
    const html = renderMarkdown('<script>alert(1)</script>')
    expect(html).not.toContain('<script')
    expect(html).toContain('&lt;script&gt;')
  })

  it('escapes raw img tags with event handlers', () => {
    const html = renderMarkdown('before <img src=x onerror="alert(1)"> after')
    expect(html).not.toMatch(/<img/i)
    expect(html).toContain('&lt;img')
  })

  it('neutralises javascript: links, keeping their text', () => {
    const html = renderMarkdown('[click](javascript:alert(1)) and [x](JaVaScRiPt:alert(1))')
    expect(html).not.toMatch(/javascript/i)
    expect(html).not.toContain('<a')
    expect(html).toContain('<span class="md-dropped-link">click</span>')
  })

  it('opens links in a new tab without a referrer', () => {
    expect(renderMarkdown('[docs](https://example.com/a?b=1&c=2 "Docs")')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" title="Docs" rel="noopener noreferrer" target="_blank">docs</a></p>',
    )
  })

  it('turns remote images into links showing the alt text', () => {
    const html = renderMarkdown('![a chart](https://example.com/chart.png "Chart")')
    expect(html).not.toContain('<img')
    expect(html).toBe(
      '<p><a class="md-image-link" href="https://example.com/chart.png" title="Chart" rel="noopener noreferrer" target="_blank">a chart</a></p>',
    )
  })

  it('escapes markup in the alt text of a rewritten image', () => {
    const html = renderMarkdown('![<b onclick="x">](https://example.com/i.png)')
    expect(html).not.toContain('<b')
    expect(html).toContain('&lt;b onclick=&quot;x&quot;&gt;')
  })

  it('labels an image without alt text by its address', () => {
    expect(renderMarkdown('![](https://example.com/i.png)')).toContain(
      '>https://example.com/i.png</a>',
    )
  })

  it('never loads images, whatever their source', () => {
    for (const source of [
      '![x](http://example.com/i.png)',
      '![x](/local.png)',
      '![x](data:image/png;base64,iVBORw0KGgo=)',
      '![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)',
      '![x](javascript:alert(1))',
      '[ref]: https://example.com/r.png\n\n![x][ref]',
    ]) {
      expect(renderMarkdown(source), source).not.toContain('<img')
    }
  })

  it('shows an image whose address was dropped as plain text', () => {
    expect(renderMarkdown('![secret](javascript:alert(1))')).toBe(
      '<p><span class="md-image-text">secret</span></p>',
    )
  })

  it('does not nest a link inside a linked image', () => {
    const html = renderMarkdown('[![badge](https://example.com/b.svg)](https://example.com)')
    expect(html).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer" target="_blank"><span class="md-image-text">badge</span></a></p>',
    )
  })

  it('renders GFM tables', () => {
    const html = renderMarkdown('| a | b |\n| - | - |\n| 1 | 2 |')
    expect(html).toContain('<table>')
    expect(html).toContain('<th>a</th>')
    expect(html).toContain('<td>2</td>')
  })

  it('renders GFM strikethrough and autolinks', () => {
    const html = renderMarkdown('~~old~~ see www.example.com')
    expect(html).toContain('<del>old</del>')
    expect(html).toContain(
      '<a href="http://www.example.com" rel="noopener noreferrer" target="_blank">www.example.com</a>',
    )
  })

  it('keeps footnote references within the page', () => {
    const html = renderMarkdown('text[^1]\n\n[^1]: note')
    expect(html).toContain('<a href="#user-content-fn-1"')
    expect(html).not.toContain('target="_blank"')
  })

  it('leaves markup inside code escaped', () => {
    expect(renderMarkdown('`<a href="x">`')).toBe(
      '<p><code>&lt;a href=&quot;x&quot;&gt;</code></p>',
    )
  })
})
