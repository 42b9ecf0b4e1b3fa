// The Markdown worker: renders one text per message off the page's main thread, so a text that
// is slow to parse costs this worker (ended when over its limit) and never the tab.

import { renderBounded, type MarkdownRendering } from './markdown.js'

const scope = self as unknown as {
  postMessage(message: unknown): void
  onmessage: ((event: MessageEvent<string>) => void) | null
}

scope.onmessage = (event) => {
  let answer: MarkdownRendering
  try {
    answer = renderBounded(event.data)
  } catch (error) {
    answer = {
      ok: false,
      reason: `it could not be rendered (${(error as Error).message})`,
      retry: false,
    }
  }
  scope.postMessage(answer)
}
// The first message says the worker is loaded: time limits start counting from here.
scope.postMessage('ready')
