// The pattern worker: matches one (pattern, value) per message, off the page's main thread, so a
// pattern that backtracks for ever costs this worker (ended at its time limit) and never the tab.

import { matchPattern } from './pattern.js'

const scope = self as unknown as {
  postMessage(message: unknown): void
  onmessage: ((event: MessageEvent<{ pattern: string; value: string }>) => void) | null
}

scope.onmessage = (event) => scope.postMessage(matchPattern(event.data.pattern, event.data.value))
// The first message says the worker is loaded: time limits start counting from here.
scope.postMessage('ready')
