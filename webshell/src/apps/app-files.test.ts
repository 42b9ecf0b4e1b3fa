import { describe, expect, it } from 'vitest'
import {
  APP_DOWNLOAD_BYTES_LIMIT,
  APP_DOWNLOAD_FILES_LIMIT,
} from '../../../daemon/src/protocol/app-limits.js'
import { downloadFiles, safeMimeType, webUrl } from './app-files.js'

const text = (uri: string, body: string, mimeType = 'text/plain') => ({
  type: 'resource',
  resource: { uri, mimeType, text: body },
})

describe('the links an App may open', () => {
  it('opens http and https pages only, as the browser would read them', () => {
    expect(webUrl('https://example.com/a b')?.href).toBe('https://example.com/a%20b')
    expect(webUrl('HTTP://EXAMPLE.com')?.href).toBe('http://example.com/')
    // The host the person is shown is the one that opens: no look-alike letters.
    expect(webUrl('https://exаmple.com/')?.host).toBe('xn--exmple-4nf.com')
    for (const refused of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'blob:https://example.com/1',
      'ftp://example.com/',
      'about:blank',
      '//example.com/',
      'not a url',
      `https://example.com/${'a'.repeat(8200)}`,
    ]) {
      expect(webUrl(refused), refused).toBeNull()
    }
  })
})

describe('the files of an App download', () => {
  it('takes embedded text and base64 contents with their sizes, types and safe names', () => {
    const files = downloadFiles([
      text('file:///report.csv', 'a,b\n1,2\n', 'text/csv'),
      text('file:///notes/h%C3%A9.txt', 'é'),
      {
        type: 'resource',
        resource: { uri: 'file:///x.bin', mimeType: 'image/png', blob: 'AAEC/w==' },
      },
    ])
    expect(files).not.toBeTypeOf('string')
    const list = files as Exclude<typeof files, string>
    expect(list.map(({ name, mimeType, bytes }) => [name, mimeType, bytes])).toEqual([
      ['report.csv', 'text/csv', 8],
      ['h_.txt', 'text/plain', 2],
      ['x.bin', 'image/png', 4],
    ])
    expect([...(list[2]?.data ?? [])]).toEqual([0, 1, 2, 255])
  })

  it('refuses links, too many files, too many bytes and contents it cannot read, saying why', () => {
    expect(
      downloadFiles([{ type: 'resource_link', uri: 'https://example.com/a.pdf', name: 'a' }]),
    ).toMatch(/does not fetch links/)
    expect(downloadFiles([])).toMatch(/at least one file/)
    const many = Array.from({ length: APP_DOWNLOAD_FILES_LIMIT + 1 }, (_, i) => text(`f${i}`, 'x'))
    expect(downloadFiles(many)).toBe(
      `a download is at most ${APP_DOWNLOAD_FILES_LIMIT} files; this one has ${APP_DOWNLOAD_FILES_LIMIT + 1}`,
    )
    const half = 'x'.repeat(APP_DOWNLOAD_BYTES_LIMIT / 2 + 1)
    expect(downloadFiles([text('a', half), text('b', half)])).toBe(
      'a download is at most 10 MiB in all',
    )
    const blob = 'A'.repeat(Math.ceil((APP_DOWNLOAD_BYTES_LIMIT + 1) / 3) * 4)
    expect(downloadFiles([{ type: 'resource', resource: { uri: 'a', blob } }])).toBe(
      'a download is at most 10 MiB in all',
    )
    expect(downloadFiles([{ type: 'resource', resource: { uri: 'file:///a', blob: '@@' } }])).toBe(
      'file 1 (a) is not valid base64',
    )
    expect(downloadFiles([{ type: 'resource', resource: { uri: 'file:///a' } }])).toBe(
      'file 1 (a) has neither text nor blob',
    )
    expect(downloadFiles([{ type: 'text', text: 'x' }])).toBe('file 1 is not an embedded resource')
  })

  it('names files so no path, control character or direction mark chooses where they land', () => {
    const names = downloadFiles(
      ['file:///etc/passwd', 'file:///a/..%2F..%2Fevil.sh', 'file:///gpj.\u202eexe', ''].map(
        (uri) => text(uri, 'x'),
      ),
    )
    expect((names as Exclude<typeof names, string>).map((file) => file.name)).toEqual([
      'passwd',
      '_.._evil.sh',
      'gpj._exe',
      'resource.bin',
    ])
  })

  it('keeps a MIME type only when it is one', () => {
    expect(safeMimeType('Text/CSV; charset=utf-8')).toBe('text/csv; charset=utf-8')
    expect(safeMimeType('text/html\r\nX: y')).toBe('application/octet-stream')
    expect(safeMimeType('csv')).toBe('application/octet-stream')
    expect(safeMimeType(undefined)).toBe('application/octet-stream')
  })
})
