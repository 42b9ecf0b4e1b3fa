// A tool result in a transcript card: Markdown text, inline images and audio, resource links and
// embedded resources, structured content as JSON, and errors in red. Everything shown has been
// checked by readResult first, since the result is untrusted JSON from an MCP server.

import type { JSX } from 'preact'
import { useMemo } from 'preact/hooks'
import type { CallToolResult } from '../../../daemon/src/protocol/index.js'
import { LONG_TEXT_LINES, readResult, type ResultItem } from './content.js'
import { renderMarkdown } from './markdown.js'
import './result.css'

export function ResultView(props: { result: CallToolResult }): JSX.Element {
  const { isError, items, structured } = useMemo(() => readResult(props.result), [props.result])
  return (
    <div
      class={isError ? 'result result-error' : 'result'}
      data-testid="result"
      data-error={isError ? 'true' : undefined}
    >
      {items.length === 0 && structured === undefined ? (
        <p class="result-empty">(empty result)</p>
      ) : (
        items.map((item, index) => <Item key={index} item={item} />)
      )}
      {structured !== undefined && (
        <details class="result-structured" data-testid="structured">
          <summary>Structured content</summary>
          <pre>{structured}</pre>
        </details>
      )}
    </div>
  )
}

function Item({ item }: { item: ResultItem }): JSX.Element {
  switch (item.kind) {
    case 'text':
      return <Markdown text={item.text} />
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
        </div>
      )
    case 'resource-text':
      return (
        <div class="result-resource">
          <ResourceHead uri={item.uri} mimeType={item.mimeType} />
          {item.lines > LONG_TEXT_LINES ? (
            <details>
              <summary>{item.lines} lines</summary>
              <pre>{item.text}</pre>
            </details>
          ) : (
            <pre>{item.text}</pre>
          )}
        </div>
      )
    case 'resource-blob':
      return (
        <div class="result-resource">
          <ResourceHead uri={item.uri} />
          <p class="result-meta">
            {['binary', item.size === null ? 'not valid base64' : bytes(item.size), item.mimeType]
              .filter((part) => part !== undefined)
              .join(', ')}
          </p>
        </div>
      )
    case 'notice':
      return (
        <div class="result-note">
          <p>{item.message}</p>
          {item.json !== undefined && (
            <details>
              <summary>JSON</summary>
              <pre>{item.json}</pre>
            </details>
          )}
        </div>
      )
  }
}

function Markdown({ text }: { text: string }): JSX.Element {
  // renderMarkdown escapes raw HTML, drops dangerous URLs and loads no images, so its output may
  // be inserted as HTML. Memoised because transcripts re-render often and parsing is the cost.
  const html = useMemo(() => renderMarkdown(text), [text])
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}

function ResourceHead({ uri, mimeType }: { uri: string; mimeType?: string }): JSX.Element {
  return (
    <div class="result-resource-address">
      <code>{uri}</code>
      <Meta parts={[mimeType]} />
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
