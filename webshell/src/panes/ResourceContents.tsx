// What a resource read gave, shown safely: texts bounded as plain text, Markdown rendered by the
// results' sanitising renderer with its source a toggle away, small textual blobs as their text,
// other blobs as type and size, every blob with a download, raster images and audio inline as
// `data:` URLs. Nothing the server sent is inserted as HTML.

import type { ComponentChildren, JSX } from 'preact'
import { useMemo, useState } from 'preact/hooks'
import { initialView, MarkdownText } from '../result/MarkdownText.js'
import { PlainText } from '../result/PlainText.js'
import { base64Bytes, downloadName, readContents, type ResourcePart } from './resource-contents.js'

/** Each result read gets its own parts, so a text's view never carries over to the next read. */
let reads = 0

export function ResourceContents({ result }: { result: unknown }): JSX.Element {
  const { read, parts } = useMemo(() => ({ read: ++reads, parts: readContents(result) }), [result])
  if (parts.length === 0) return <p class="pane-empty">The resource is empty.</p>
  return (
    <div class="resource-contents" data-testid="resource-contents">
      {parts.map((part, index) => (
        <Part key={`${read}:${index}`} part={part} />
      ))}
    </div>
  )
}

function Part({ part }: { part: ResourcePart }): JSX.Element {
  switch (part.kind) {
    case 'text':
      return <TextPart part={part} />
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
          {part.base64 !== null && <Download uri={part.uri} base64={part.base64} />}
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

/** A text, or a blob read as text: Markdown rendered unless its source is asked for. */
function TextPart({ part }: { part: Extract<ResourcePart, { kind: 'text' }> }): JSX.Element {
  const [source, setSource] = useState(false)
  const [view, setView] = useState(() => initialView(part.text))
  const { blob, markdown } = part
  const rendered = markdown && !source
  return (
    <div
      class="resource-part"
      data-testid={blob === undefined ? 'resource-text' : 'resource-blob'}
      data-view={markdown ? (source ? 'source' : 'rendered') : undefined}
    >
      <Head
        uri={part.uri}
        parts={
          blob === undefined
            ? [part.mimeType, `${part.text.length.toLocaleString('en-US')} characters`]
            : ['blob shown as text', bytes(blob.size), part.mimeType]
        }
      >
        {markdown && (
          <button
            type="button"
            data-testid="view-source"
            aria-pressed={source}
            onClick={() => setSource(!source)}
          >
            View Source
          </button>
        )}
      </Head>
      {rendered ? (
        <MarkdownText text={part.text} view={view} onView={setView} />
      ) : (
        <PlainText text={part.text} />
      )}
      {blob !== undefined && <Download uri={part.uri} base64={blob.base64} />}
    </div>
  )
}

function Download({ uri, base64 }: { uri: string; base64: string }): JSX.Element {
  return (
    <button type="button" data-testid="download" onClick={() => download(uri, base64)}>
      Download {downloadName(uri)}
    </button>
  )
}

function Head(props: {
  uri: string
  parts: (string | undefined)[]
  children?: ComponentChildren
}): JSX.Element {
  const shown = props.parts.filter((part) => part !== undefined)
  return (
    <p class="resource-head">
      <code>{props.uri}</code> <span class="result-meta">{shown.join(', ')}</span> {props.children}
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
