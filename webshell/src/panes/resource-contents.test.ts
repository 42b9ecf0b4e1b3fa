import { describe, expect, it } from 'vitest'
import { base64Bytes, downloadName, isMarkdown, readContents } from './resource-contents.js'

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

describe('resource contents', () => {
  it('show texts, blob sizes, and images only of the types the page displays', () => {
    const parts = readContents({
      contents: [
        { uri: 'demo://t', mimeType: 'text/plain', text: 'hello' },
        { uri: 'demo://b', mimeType: 'application/octet-stream', blob: 'AAEC' },
        { uri: 'demo://p', mimeType: 'image/png', blob: PNG },
        { uri: 'demo://s', mimeType: 'image/svg+xml', blob: btoa('<svg onload=alert(1)>') },
        { uri: 'demo://x', blob: 'not base64!' },
      ],
    })
    expect(parts[0]).toEqual({
      kind: 'text',
      uri: 'demo://t',
      mimeType: 'text/plain',
      text: 'hello',
      markdown: false,
    })
    expect(parts[1]).toMatchObject({ kind: 'blob', size: 3, base64: 'AAEC' })
    expect(parts[1]).not.toHaveProperty('media')
    expect(parts[2]).toMatchObject({ kind: 'blob', media: { kind: 'image' } })
    expect((parts[2] as { media: { src: string } }).media.src).toMatch(/^data:image\/png;base64,/)
    expect(parts[3]).not.toHaveProperty('media')
    expect(parts[4]).toMatchObject({ kind: 'blob', base64: null, size: null })
  })

  it('mark Markdown texts by their type, or by a .md path when untyped', () => {
    expect(isMarkdown('demo://a', 'text/markdown')).toBe(true)
    expect(isMarkdown('demo://a', 'Text/X-Markdown; charset=utf-8')).toBe(true)
    expect(isMarkdown('file:///docs/README.md', undefined)).toBe(true)
    expect(isMarkdown('file:///docs/guide.markdown?v=2#top', undefined)).toBe(true)
    expect(isMarkdown('file:///docs/README.md', 'text/plain')).toBe(false)
    expect(isMarkdown('file:///docs/notes.txt', undefined)).toBe(false)
    expect(isMarkdown('file:///docs/md', undefined)).toBe(false)
    expect(readContents({ contents: [{ uri: 'x://a.md', text: '# hi' }] })).toMatchObject([
      { kind: 'text', markdown: true },
    ])
  })

  it('show a small textual blob as its text, with the blob kept for its download', () => {
    const json = btoa('{"ok":true}')
    const [part, big, binary] = readContents({
      contents: [
        { uri: 'demo://c.json', mimeType: 'application/json', blob: json },
        { uri: 'demo://big', mimeType: 'text/plain', blob: btoa('x'.repeat(65 * 1024)) },
        { uri: 'demo://bin', mimeType: 'text/plain', blob: 'AAEC' },
      ],
    })
    expect(part).toEqual({
      kind: 'text',
      uri: 'demo://c.json',
      mimeType: 'application/json',
      text: '{\n  "ok": true\n}',
      markdown: false,
      blob: { base64: json, size: 11 },
    })
    expect(big).toMatchObject({ kind: 'blob', size: 65 * 1024 })
    expect(binary).toMatchObject({ kind: 'blob', size: 3 })
    const [doc] = readContents({
      contents: [{ uri: 'demo://d', mimeType: 'text/markdown', blob: btoa('# Title') }],
    })
    expect(doc).toMatchObject({ kind: 'text', text: '# Title', markdown: true })
  })

  it('turn anything else into a notice with its JSON', () => {
    expect(readContents('nope')[0]).toMatchObject({ kind: 'notice' })
    expect(readContents({ contents: [{ text: 'no uri' }, { uri: 'a://b' }] })).toMatchObject([
      { kind: 'notice', message: 'A content without a URI is not shown' },
      { kind: 'notice', message: 'The content of a://b has neither text nor blob' },
    ])
  })

  it('save under a safe file name', () => {
    expect(downloadName('demo://resource/static/document/architecture.md')).toBe('architecture.md')
    expect(downloadName('file:///tmp/..%2F..%2Fetc%2Fpasswd')).toBe('_.._etc_passwd')
    expect(downloadName('demo://x/')).toBe('x')
    expect(downloadName('weird:')).toBe('weird_')
    expect(downloadName('')).toBe('resource.bin')
    expect(Array.from(base64Bytes('AAEC'))).toEqual([0, 1, 2])
  })
})
