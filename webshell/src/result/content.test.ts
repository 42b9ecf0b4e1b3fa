// readResult must accept every MCP content shape and turn anything else into a notice, never
// trusting a field's type.

import { describe, expect, it } from 'vitest'
import { countLines, readItem, readResult, webHref } from './content.js'

const PNG = 'iVBORw0KGgo='

describe('readResult', () => {
  it('reads isError only when it is exactly true', () => {
    expect(readResult({ content: [], isError: true }).isError).toBe(true)
    expect(readResult({ content: [], isError: 'yes' } as never).isError).toBe(false)
    expect(readResult({ content: [] }).isError).toBe(false)
  })

  it('treats missing content as empty and a non-list as a notice', () => {
    expect(readResult({}).items).toEqual([])
    expect(readResult({ content: 'hi' }).items).toEqual([
      { kind: 'notice', message: 'The result’s content is not a list', json: '"hi"' },
    ])
  })

  it('pretty-prints structured content', () => {
    expect(readResult({ content: [], structuredContent: { a: [1] } }).structured).toBe(
      '{\n  "a": [\n    1\n  ]\n}',
    )
    expect(readResult({ content: [] }).structured).toBeUndefined()
    expect(readResult({ content: [], structuredContent: null }).structured).toBeUndefined()
  })
})

describe('readItem', () => {
  it('reads text', () => {
    expect(readItem({ type: 'text', text: '# hi' })).toEqual({ kind: 'text', text: '# hi' })
  })

  it('turns text without a string into a notice with its JSON', () => {
    expect(readItem({ type: 'text', text: 5 })).toEqual({
      kind: 'notice',
      message: 'Malformed text content is not shown',
      json: '{\n  "type": "text",\n  "text": 5\n}',
    })
  })

  it('shows raster images as data URLs of the allow-listed type', () => {
    expect(readItem({ type: 'image', data: PNG, mimeType: 'Image/PNG' })).toEqual({
      kind: 'image',
      src: `data:image/png;base64,${PNG}`,
      mimeType: 'image/png',
    })
  })

  it('refuses SVG, unknown types and bad base64', () => {
    expect(readItem({ type: 'image', data: PNG, mimeType: 'image/svg+xml' })).toEqual({
      kind: 'notice',
      message: 'Image not shown: type image/svg+xml is not displayed',
    })
    expect(readItem({ type: 'image', data: PNG })).toEqual({
      kind: 'notice',
      message: 'Image not shown: it has no type',
    })
    for (const data of ['not base64!', 'abc', '', 42, 'iVBO"><script>']) {
      expect(readItem({ type: 'image', data, mimeType: 'image/png' })).toEqual({
        kind: 'notice',
        message: 'Image not shown: its data is not valid base64',
      })
    }
  })

  it('accepts base64 wrapped over lines', () => {
    expect(readItem({ type: 'image', data: 'iVBO\nRw0K\r\nGgo=', mimeType: 'image/png' })).toEqual({
      kind: 'image',
      src: `data:image/png;base64,${PNG}`,
      mimeType: 'image/png',
    })
  })

  it('plays common audio types and refuses others', () => {
    expect(readItem({ type: 'audio', data: 'AAAA', mimeType: 'audio/ogg; codecs=opus' })).toEqual({
      kind: 'audio',
      src: 'data:audio/ogg;base64,AAAA',
      mimeType: 'audio/ogg',
    })
    expect(readItem({ type: 'audio', data: 'AAAA', mimeType: 'audio/midi' })).toEqual({
      kind: 'notice',
      message: 'Audio not played: type audio/midi is not supported',
    })
  })

  it('reads resource links, linking only web addresses', () => {
    expect(
      readItem({
        type: 'resource_link',
        uri: 'https://example.com/a b',
        name: 'a',
        title: 'Report',
        description: 'Quarterly',
        mimeType: 'text/csv',
        size: 2048,
      }),
    ).toEqual({
      kind: 'resource-link',
      label: 'Report',
      uri: 'https://example.com/a b',
      href: 'https://example.com/a%20b',
      mimeType: 'text/csv',
      description: 'Quarterly',
      size: 2048,
    })
    expect(readItem({ type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' })).toEqual({
      kind: 'resource-link',
      label: 'pw',
      uri: 'file:///etc/passwd',
    })
    expect(readItem({ type: 'resource_link', uri: 'x', name: 1, size: -1 })).toEqual({
      kind: 'resource-link',
      label: 'x',
      uri: 'x',
    })
    expect(readItem({ type: 'resource_link', name: 'no uri' })).toMatchObject({ kind: 'notice' })
  })

  it('reads embedded text and blob resources', () => {
    expect(
      readItem({
        type: 'resource',
        resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'a\nb\n' },
      }),
    ).toEqual({
      kind: 'resource-text',
      uri: 'file:///a.txt',
      mimeType: 'text/plain',
      text: 'a\nb\n',
      lines: 2,
      resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'a\nb\n' },
    })
    expect(readItem({ type: 'resource', resource: { uri: 'mem:b', blob: 'AAECAw==' } })).toEqual({
      kind: 'resource-blob',
      uri: 'mem:b',
      size: 4,
      resource: { uri: 'mem:b', blob: 'AAECAw==' },
    })
    expect(readItem({ type: 'resource', resource: { uri: 'mem:b', blob: '%%' } })).toEqual({
      kind: 'resource-blob',
      uri: 'mem:b',
      size: null,
      resource: { uri: 'mem:b', blob: '%%' },
    })
    // A small textual blob is read as its text; a binary one keeps only its size.
    const json = { uri: 'mem:j', mimeType: 'application/json', blob: btoa('{"a":[1]}') }
    expect(readItem({ type: 'resource', resource: json })).toEqual({
      kind: 'resource-text',
      uri: 'mem:j',
      mimeType: 'application/json',
      text: '{\n  "a": [\n    1\n  ]\n}',
      lines: 5,
      resource: json,
      blobSize: 9,
    })
    const binary = { uri: 'mem:p', mimeType: 'text/plain', blob: 'AAECAw==' }
    expect(readItem({ type: 'resource', resource: binary })).toMatchObject({
      kind: 'resource-blob',
      size: 4,
    })
    expect(readItem({ type: 'resource', resource: { uri: 'mem:c' } })).toMatchObject({
      kind: 'notice',
    })
    expect(readItem({ type: 'resource', resource: 'nope' })).toMatchObject({ kind: 'notice' })
  })

  it('names unknown types and keeps their JSON', () => {
    expect(readItem({ type: 'video', data: 'x' })).toEqual({
      kind: 'notice',
      message: 'Content of type “video” is not shown',
      json: '{\n  "type": "video",\n  "data": "x"\n}',
    })
    expect(readItem(null)).toEqual({
      kind: 'notice',
      message: 'Content item is not an object',
      json: 'null',
    })
    expect(readItem({ text: 'x' })).toMatchObject({
      message: 'Content item without a type is not shown',
    })
  })
})

describe('helpers', () => {
  it('links only http and https', () => {
    expect(webHref('http://example.com')).toBe('http://example.com/')
    expect(webHref('javascript:alert(1)')).toBeUndefined()
    expect(webHref('data:text/html,x')).toBeUndefined()
    expect(webHref('not a url')).toBeUndefined()
  })

  it('counts lines without a trailing newline', () => {
    expect(countLines('')).toBe(0)
    expect(countLines('a')).toBe(1)
    expect(countLines('a\n')).toBe(1)
    expect(countLines('a\n\nb')).toBe(3)
  })
})
