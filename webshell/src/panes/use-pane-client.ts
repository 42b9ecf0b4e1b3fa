// The panes' client, made from the shell's controller: REST with the tab's token, the session
// shown, and one server's live feeds over the tab's stream.

import { useMemo } from 'preact/hooks'
import { useShell } from '../store/shell-context.js'
import { tabLabel } from '../stream.js'
import type { PaneClient } from './pane-client.js'

export function usePaneClient(): PaneClient {
  const { store, controller } = useShell()
  return useMemo(
    () => ({
      identity: { kind: 'webshell', label: tabLabel() },
      request: (path, method, body) => controller.api(path, method, body),
      session: () => store.session.peek(),
      follow: (server, feeds, listener) => controller.follow(server, feeds, listener),
    }),
    [store, controller],
  )
}
