// What an App hands over for a link or a download, checked before the person is asked: only http(s)
// pages open, and a download is the App's own embedded contents (text or base64), bounded in count
// and bytes, saved as plain bytes under names made safe, like the Resources pane's downloads. Links
// in a download are refused: Ferry fetches nothing for an App.

import {
  APP_DOWNLOAD_BYTES_LIMIT,
  APP_DOWNLOAD_FILES_LIMIT,
} from '../../../daemon/src/protocol/app-limits.js'
import { base64Bytes, downloadName } from '../panes/resource-contents.js'
import { decodedSize, normaliseBase64 } from '../result/media.js'

/** The URL as it will open (normalised, hosts in punycode), or null when Ferry will not open it. */
export function webUrl(url: string): URL | null {
  if (url.length > 8192) return null
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : null
  } catch {
    return null
  }
}

/** One file of a download, ready to save. */
export interface DownloadFile {
  name: string
  mimeType: string
  bytes: number
  data: Uint8Array<ArrayBuffer> | string
}

const FALLBACK_TYPE = 'application/octet-stream'

/** A MIME type as the person is shown it; anything else is plain bytes. */
export function safeMimeType(type: unknown): string {
  if (typeof type !== 'string') return FALLBACK_TYPE
  const trimmed = type.trim().toLowerCase()
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(;[ -~]*)?$/.test(trimmed) && trimmed.length <= 255
    ? trimmed
    : FALLBACK_TYPE
}

/**
 * The files of a `ui/download-file` request, or the reason it is refused (said to the App, which
 * the person never sees asked).
 */
export function downloadFiles(contents: unknown): DownloadFile[] | string {
  if (!Array.isArray(contents) || contents.length === 0) return 'a download needs at least one file'
  if (contents.length > APP_DOWNLOAD_FILES_LIMIT) {
    return `a download is at most ${APP_DOWNLOAD_FILES_LIMIT} files; this one has ${contents.length}`
  }
  const tooLarge = `a download is at most ${APP_DOWNLOAD_BYTES_LIMIT / 1024 / 1024} MiB in all`
  const files: DownloadFile[] = []
  let total = 0
  const encoder = new TextEncoder()
  for (const [index, item] of contents.entries()) {
    const block = item as { type?: unknown; resource?: Record<string, unknown> }
    if (block.type === 'resource_link') {
      return 'Ferry saves only contents the App hands over; it does not fetch links (open a page with ui/open-link)'
    }
    const resource = block.resource
    if (block.type !== 'resource' || typeof resource !== 'object' || resource === null) {
      return `file ${index + 1} is not an embedded resource`
    }
    const name = downloadName(typeof resource.uri === 'string' ? resource.uri : '')
    const mimeType = safeMimeType(resource.mimeType)
    let data: DownloadFile['data']
    let bytes: number
    if (typeof resource.text === 'string') {
      data = resource.text
      bytes = encoder.encode(resource.text).length
    } else if (typeof resource.blob === 'string') {
      const base64 = resource.blob === '' ? '' : normaliseBase64(resource.blob)
      if (base64 === null) return `file ${index + 1} (${name}) is not valid base64`
      bytes = base64 === '' ? 0 : decodedSize(base64)
      // Counted before decoding, so an oversize blob is never decoded.
      if (total + bytes > APP_DOWNLOAD_BYTES_LIMIT) return tooLarge
      data = base64Bytes(base64)
    } else {
      return `file ${index + 1} (${name}) has neither text nor blob`
    }
    total += bytes
    if (total > APP_DOWNLOAD_BYTES_LIMIT) return tooLarge
    files.push({ name, mimeType, bytes, data })
  }
  return files
}

/** Saves each file through the browser; call from the person's click. */
export function saveFiles(files: readonly DownloadFile[]): void {
  for (const file of files) {
    // Plain bytes whatever the App declared, so the browser saves and never renders them.
    const url = URL.createObjectURL(new Blob([file.data], { type: FALLBACK_TYPE }))
    const anchor = document.createElement('a')
    anchor.href = url
    anchor.download = file.name
    anchor.rel = 'noopener'
    anchor.hidden = true
    document.body.append(anchor)
    anchor.click()
    anchor.remove()
    // The browser reads the Blob once the download starts; a minute is ample for that.
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }
}
