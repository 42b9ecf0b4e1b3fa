import { describe, expect, it } from 'vitest'
import { base64Bytes, downloadName, readContents } from './resource-contents.js'

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
    })
    expect(parts[1]).toMatchObject({ kind: 'blob', size: 3, base64: 'AAEC' })
    expect(parts[1]).not.toHaveProperty('media')
    expect(parts[2]).toMatchObject({ kind: 'blob', media: { kind: 'image' } })
    expect((parts[2] as { media: { src: string } }).media.src).toMatch(/^data:image\/png;base64,/)
    expect(parts[3]).not.toHaveProperty('media')
    expect(parts[4]).toMatchObject({ kind: 'blob', base64: null, size: null })
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
