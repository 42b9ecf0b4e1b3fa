// One text of a result as Markdown, rendered off the main thread within a size and time budget.
// Until the worker answers, and whenever the text is over budget, it shows plain and collapsed,
// with "Show all" and "Render as Markdown" (which lifts the time limit, still off the thread).

import type { JSX } from 'preact'
import { useEffect } from 'preact/hooks'
import { cachedRendering, overBudget, renderOffThread } from './markdown-renderer.js'
import { PlainText } from './PlainText.js'

export type TextView =
  | { kind: 'pending' }
  | { kind: 'html'; html: string }
  | { kind: 'plain'; reason: string; retry: boolean }
  /** Asked to render as Markdown anyway; `reason` is why it was plain. */
  | { kind: 'rendering'; reason: string }

/** What a text shows first: known at once from the cache or its size, else pending. */
export function initialView(text: string): TextView {
  const cached = cachedRendering(text)
  if (cached !== undefined) {
    return cached.ok
      ? { kind: 'html', html: cached.html }
      : { kind: 'plain', reason: cached.reason, retry: cached.retry }
  }
  const reason = overBudget(text)
  return reason === undefined ? { kind: 'pending' } : { kind: 'plain', reason, retry: true }
}

export function MarkdownText(props: {
  text: string
  view: TextView
  onView: (view: TextView) => void
}): JSX.Element {
  const { text, view, onView } = props
  useEffect(() => {
    if (view.kind !== 'pending' && view.kind !== 'rendering') return
    const controller = new AbortController()
    const asked = view.kind === 'rendering'
    void renderOffThread(text, asked, controller.signal).then((rendering) => {
      if (rendering === undefined) return
      onView(
        rendering.ok
          ? { kind: 'html', html: rendering.html }
          : { kind: 'plain', reason: rendering.reason, retry: rendering.retry && !asked },
      )
    })
    return () => controller.abort()
    // onView is a new function on every render; only the text and the view's kind matter here.
  }, [text, view.kind])

  switch (view.kind) {
    case 'html':
      // renderMarkdown escapes raw HTML, drops dangerous URLs and loads no images, so its output
      // may be inserted as HTML.
      return <div class="markdown" dangerouslySetInnerHTML={{ __html: view.html }} />
    case 'pending':
      return <PlainText text={text} />
    case 'plain':
      return (
        <PlainText text={text} note={`Shown as plain text: ${view.reason}.`}>
          {view.retry && (
            <button
              type="button"
              data-testid="render-markdown"
              onClick={() => onView({ kind: 'rendering', reason: view.reason })}
            >
              Render as Markdown
            </button>
          )}
        </PlainText>
      )
    case 'rendering':
      return (
        <PlainText text={text} note={`Shown as plain text: ${view.reason}. Rendering as Markdown…`}>
          <button
            type="button"
            data-testid="stop-rendering"
            onClick={() => onView({ kind: 'plain', reason: view.reason, retry: true })}
          >
            Stop rendering
          </button>
        </PlainText>
      )
  }
}
