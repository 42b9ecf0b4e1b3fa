// The panes' client, made from the shell's controller: REST with the tab's token, the session
// shown and its events, and one server's live feeds over the tab's stream, with word when the
// stream came back.

import { effect } from '@preact/signals'
import { useMemo } from 'preact/hooks'
import type { ShellStore } from '../store/shell-store.js'
import { useShell } from '../store/shell-context.js'
import { tabLabel } from '../tab-label.js'
import type { PaneClient } from './pane-client.js'

/** Calls `listener` each time the connection turns live again after it was not. */
function whenLiveAgain(store: ShellStore, listener: () => void): () => void {
  let wasLive = store.connection.peek().state === 'live'
  return effect(() => {
    const live = store.connection.value.state === 'live'
    if (live && !wasLive) listener()
    wasLive = live
  })
}

export function usePaneClient(): PaneClient {
  const { store, controller } = useShell()
  return useMemo(
    () => ({
      identity: { kind: 'webshell', label: tabLabel() },
      request: (path, method, body) => controller.api(path, method, body),
      session: () => store.session.peek(),
      onEvents: (listener) => controller.onEvents(listener),
      onResumed: (listener) => whenLiveAgain(store, listener),
      follow(server, feeds, listener) {
        const stop = controller.followServer(server, feeds, (message) => {
          if (message.type === 'trace') listener.trace?.(message.entry)
          else listener.log?.(message.line)
        })
        // Back to live after a drop: the follow was asked for again, the gap is read again.
        const stopWatching = whenLiveAgain(store, () => listener.resumed?.())
        return () => {
          stopWatching()
          stop()
        }
      },
    }),
    [store, controller],
  )
}
