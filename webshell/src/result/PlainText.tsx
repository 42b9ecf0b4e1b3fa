// Text shown as it is, bounded: the first lines up to a few KB, then "Show all". Laying out a
// huge text stalls the page as surely as parsing it, so even "all" is split into blocks the
// browser lays out only as they scroll into view.

import type { ComponentChildren, JSX } from 'preact'
import { useMemo, useState } from 'preact/hooks'
import { lineCount } from './markdown-renderer.js'

export const PREVIEW_LINES = 40
export const PREVIEW_CHARS = 4_000
const CHUNK_CHARS = 16_000
const CHUNK_MAX_CHARS = 64_000

/** The start of `text` shown collapsed, or undefined when the whole text is short enough. */
export function previewOf(text: string): string | undefined {
  let end = -1
  for (let line = 0; line < PREVIEW_LINES; line++) {
    end = text.indexOf('\n', end + 1)
    if (end === -1 || end >= PREVIEW_CHARS) break
  }
  const cut = end === -1 ? PREVIEW_CHARS : Math.min(end, PREVIEW_CHARS)
  // Nothing left after the cut, or only a final newline: the whole text is shown.
  const hidden = text.length - cut
  return hidden > 1 || (hidden === 1 && text[cut] !== '\n') ? text.slice(0, cut) : undefined
}

/** `text` in blocks of whole lines of about CHUNK_CHARS (a longer line is cut). */
export function chunksOf(text: string): string[] {
  const chunks: string[] = []
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start + CHUNK_CHARS)
    const end = Math.min(newline === -1 ? text.length : newline + 1, start + CHUNK_MAX_CHARS)
    chunks.push(text.slice(start, end))
    start = end
  }
  return chunks
}

export function describeSize(text: string): string {
  const lines = lineCount(text)
  const kb = text.length / 1000
  const amount = kb >= 1000 ? `${(kb / 1000).toFixed(1)} MB` : `${Math.ceil(kb)} KB`
  return `${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'}, ${amount}`
}

export function PlainText(props: {
  text: string
  /** Said above the text, e.g. why it is not rendered. */
  note?: string
  /** More buttons next to "Show all". */
  children?: ComponentChildren
}): JSX.Element {
  const [all, setAll] = useState(false)
  const preview = useMemo(() => previewOf(props.text), [props.text])
  const collapsed = preview !== undefined && !all
  return (
    <div
      class="plain-text"
      data-testid="plain-text"
      data-collapsed={collapsed ? 'true' : undefined}
    >
      {props.note !== undefined && (
        <p class="plain-note" data-testid="plain-note">
          {props.note}
        </p>
      )}
      {collapsed ? (
        <pre>{preview}…</pre>
      ) : all ? (
        <pre>
          {chunksOf(props.text).map((chunk, index) => (
            <span key={index} class="plain-chunk">
              {chunk}
            </span>
          ))}
        </pre>
      ) : (
        <pre>{props.text}</pre>
      )}
      {(preview !== undefined || props.children !== undefined) && (
        <div class="plain-actions">
          {preview !== undefined && (
            <button
              type="button"
              data-testid={all ? 'show-less' : 'show-all'}
              onClick={() => setAll(!all)}
            >
              {all ? 'Show less' : `Show all (${describeSize(props.text)})`}
            </button>
          )}
          {props.children}
        </div>
      )}
    </div>
  )
}
