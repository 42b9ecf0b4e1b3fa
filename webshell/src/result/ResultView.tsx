// A tool result in a transcript card: Markdown text, inline images and audio, resource links and
// embedded resources (a small textual blob as its text), structured content as JSON, and errors in
// red. Everything shown has been checked by readResult first, since the result is untrusted JSON
// from an MCP server. Texts are bounded (PlainText, MarkdownText); the view is marked `result` once
// every text has settled.

import type { JSX } from 'preact'
import { useCallback, useMemo, useState } from 'preact/hooks'
import type { CallToolResult } from '../../../daemon/src/protocol/index.js'
import { count } from '../format.js'
import { LONG_TEXT_LINES, readResult, type ResultItem } from './content.js'
import { warmMarkdown } from './markdown-renderer.js'
import { initialView, MarkdownText, type TextView } from './MarkdownText.js'
import { PlainText } from './PlainText.js'
import './result.css'

warmMarkdown()

interface Views {
  items: readonly ResultItem[]
  /** Per item: how its text shows (undefined for items that are not text). */
  views: (TextView | undefined)[]
}

function viewsOf(items: readonly ResultItem[]): Views {
  return {
    items,
    views: items.map((item) => (item.kind === 'text' ? initialView(item.text) : undefined)),
  }
}

/** Opens a resource in the Resources pane: read from the server, or as the result embedded it. */
export type OpenResultResource = (uri: string, embedded?: { contents: unknown[] }) => void

export function ResultView(props: {
  result: CallToolResult
  /** Absent, resource links and embedded resources are only shown. */
  onOpenResource?: OpenResultResource
}): JSX.Element {
  const { isError, items, structured } = useMemo(() => readResult(props.result), [props.result])
  const [state, setState] = useState(() => viewsOf(items))
  const current = state.items === items ? state : viewsOf(items)
  const setView = useCallback(
    (index: number, view: TextView) =>
      setState((shown) => {
        const base = shown.items === items ? shown : viewsOf(items)
        const views = [...base.views]
        views[index] = view
        return { items, views }
      }),
    [items],
  )
  const pending = current.views.some((view) => view?.kind === 'pending')
  return (
    <div
      class={isError ? 'result result-error' : 'result'}
      data-testid={pending ? 'result-pending' : 'result'}
      aria-busy={pending ? 'true' : undefined}
      data-error={isError ? 'true' : undefined}
    >
      {items.length === 0 && structured === undefined ? (
        <p class="result-empty">(empty result)</p>
      ) : (
        items.map((item, index) => {
          const view = current.views[index]
          return item.kind === 'text' && view !== undefined ? (
            <MarkdownText
              key={index}
              text={item.text}
              view={view}
              onView={(next) => setView(index, next)}
            />
          ) : (
            <Item key={index} item={item} open={props.onOpenResource} />
          )
        })
      )}
      {structured !== undefined && (
        <details class="result-structured" data-testid="structured">
          <summary>Structured content</summary>
          <PlainText text={structured} />
        </details>
      )}
    </div>
  )
}

function Item({
  item,
  open,
}: {
  item: ResultItem
  open: OpenResultResource | undefined
}): JSX.Element | null {
  switch (item.kind) {
    case 'text':
      return null
    case 'image':
      return (
        <img class="result-image" alt={`Image from the tool (${item.mimeType})`} src={item.src} />
      )
    case 'audio':
      return (
        <audio
          class="result-audio"
          controls
          src={item.src}
          aria-label={`Audio from the tool (${item.mimeType})`}
        >
          Audio from the tool ({item.mimeType})
        </audio>
      )
    case 'resource-link':
      return (
        <div class="result-resource">
          <div class="result-resource-title">{item.label}</div>
          <div class="result-resource-address">
            <Address uri={item.uri} href={item.href} />
            <Meta parts={[item.mimeType, item.size === undefined ? undefined : bytes(item.size)]} />
          </div>
          {item.description !== undefined && (
            <p class="result-resource-description">{item.description}</p>
          )}
          {open !== undefined && <OpenButton onClick={() => open(item.uri)} />}
        </div>
      )
    case 'resource-text':
      return (
        <div class="result-resource">
          <ResourceHead
            uri={item.uri}
            parts={[
              item.mimeType,
              item.blobSize === undefined ? undefined : `blob of ${bytes(item.blobSize)}`,
            ]}
          />
          {item.lines > LONG_TEXT_LINES ? (
            <details>
              <summary>{count(item.lines, 'line')}</summary>
              <PlainText text={item.text} />
            </details>
          ) : (
            <PlainText text={item.text} />
          )}
          {open !== undefined && (
            <OpenButton onClick={() => open(item.uri, { contents: [item.resource] })} />
          )}
        </div>
      )
    case 'resource-blob':
      return (
        <div class="result-resource">
          <ResourceHead uri={item.uri} parts={[]} />
          <p class="result-meta">
            {['binary', item.size === null ? 'not valid base64' : bytes(item.size), item.mimeType]
              .filter((part) => part !== undefined)
              .join(', ')}
          </p>
          {open !== undefined && (
            <OpenButton onClick={() => open(item.uri, { contents: [item.resource] })} />
          )}
        </div>
      )
    case 'notice':
      return (
        <div class="result-note">
          <p>{item.message}</p>
          {item.json !== undefined && (
            <details>
              <summary>JSON</summary>
              <PlainText text={item.json} />
            </details>
          )}
        </div>
      )
  }
}

function OpenButton({ onClick }: { onClick: () => void }): JSX.Element {
  return (
    <button type="button" class="result-open" data-testid="open-resource" onClick={onClick}>
      Open in Resources
    </button>
  )
}

function ResourceHead(props: { uri: string; parts: (string | undefined)[] }): JSX.Element {
  return (
    <div class="result-resource-address">
      <code>{props.uri}</code>
      <Meta parts={props.parts} />
    </div>
  )
}

function Address({ uri, href }: { uri: string; href?: string }): JSX.Element {
  if (href === undefined) return <code>{uri}</code>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {uri}
    </a>
  )
}

function Meta({ parts }: { parts: (string | undefined)[] }): JSX.Element | null {
  const shown = parts.filter((part) => part !== undefined)
  return shown.length === 0 ? null : <span class="result-meta">{shown.join(', ')}</span>
}

function bytes(size: number): string {
  return `${size.toLocaleString('en-US')} ${size === 1 ? 'byte' : 'bytes'}`
}
