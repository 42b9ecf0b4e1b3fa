// What a resource read gave, shown safely: texts bounded as plain text, blobs as type and size
// with a download, raster images and audio inline as `data:` URLs. Nothing is parsed as HTML.

import type { JSX } from 'preact'
import { useMemo } from 'preact/hooks'
import { PlainText } from '../result/PlainText.js'
import { base64Bytes, downloadName, readContents, type ResourcePart } from './resource-contents.js'

export function ResourceContents({ result }: { result: unknown }): JSX.Element {
  const parts = useMemo(() => readContents(result), [result])
  if (parts.length === 0) return <p class="pane-empty">The resource is empty.</p>
  return (
    <div class="resource-contents" data-testid="resource-contents">
      {parts.map((part, index) => (
        <Part key={index} part={part} />
      ))}
    </div>
  )
}

function Part({ part }: { part: ResourcePart }): JSX.Element {
  switch (part.kind) {
    case 'text':
      return (
        <div class="resource-part" data-testid="resource-text">
          <Head
            uri={part.uri}
            parts={[part.mimeType, `${part.text.length.toLocaleString('en-US')} characters`]}
          />
          <PlainText text={part.text} />
        </div>
      )
    case 'blob':
      return (
        <div class="resource-part" data-testid="resource-blob">
          <Head
            uri={part.uri}
            parts={[
              'binary',
              part.size === null ? 'not valid base64' : bytes(part.size),
              part.mimeType,
            ]}
          />
          {part.media?.kind === 'image' && (
            <img class="resource-image" alt={`Image ${part.uri}`} src={part.media.src} />
          )}
          {part.media?.kind === 'audio' && (
            <audio controls src={part.media.src} aria-label={`Audio ${part.uri}`} />
          )}
          {part.base64 !== null && (
            <button
              type="button"
              data-testid="download"
              onClick={() => download(part.uri, part.base64 ?? '')}
            >
              Download {downloadName(part.uri)}
            </button>
          )}
        </div>
      )
    case 'notice':
      return (
        <div class="resource-part result-note">
          <p>{part.message}</p>
          {part.json !== undefined && <PlainText text={part.json} />}
        </div>
      )
  }
}

function Head({ uri, parts }: { uri: string; parts: (string | undefined)[] }): JSX.Element {
  const shown = parts.filter((part) => part !== undefined)
  return (
    <p class="resource-head">
      <code>{uri}</code> <span class="result-meta">{shown.join(', ')}</span>
    </p>
  )
}

/** Saves the bytes as a file; typed as octet-stream so the browser never renders them. */
function download(uri: string, base64: string): void {
  const url = URL.createObjectURL(
    new Blob([base64Bytes(base64)], { type: 'application/octet-stream' }),
  )
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = downloadName(uri)
  anchor.rel = 'noopener'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

function bytes(size: number): string {
  return `${size.toLocaleString('en-US')} ${size === 1 ? 'byte' : 'bytes'}`
}
