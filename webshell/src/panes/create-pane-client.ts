// The panes' client made from the tab's token and stream: REST through `api`, live feeds through
// the stream's `follow_server`.

import { api } from '../api.js'
import type { ShellStream } from '../stream.js'
import type { PaneClient } from './pane-client.js'

export function createPaneClient(
  token: string,
  stream: ShellStream,
  session: () => string | undefined,
): PaneClient {
  return {
    request: (path, method, body) => api(token, path, method, body),
    session,
    follow: (server, feeds, listener) => stream.follow(server, feeds, listener),
  }
}
