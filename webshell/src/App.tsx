// The first WebShell view: server status and tools. Without a token it says how to get one; a
// rejected token gets a clear message instead of a blank page.

import { useEffect, useState } from 'preact/hooks'
import type { ServerInfo, ToolInfo } from '../../daemon/src/protocol/index.js'
import { ApiError, api } from './api.js'
import { ServerList } from './ServerList.js'

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; servers: ServerInfo[]; tools: ToolInfo[] }
  | { kind: 'error'; message: string }

export function App({ token }: { token: string | null }) {
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [version, setVersion] = useState(0)
  useEffect(() => {
    if (token === null) return
    Promise.all([api<ServerInfo[]>(token, '/servers'), api<ToolInfo[]>(token, '/tools')]).then(
      ([servers, tools]) => setState({ kind: 'ready', servers, tools }),
      (error: unknown) =>
        setState({
          kind: 'error',
          message:
            error instanceof ApiError && error.status === 401
              ? 'This page’s token was refused. Run `ferry open` in a terminal and use the link it prints.'
              : `Ferry could not load: ${(error as Error).message}`,
        }),
    )
  }, [token, version])

  if (token === null) {
    return (
      <main data-testid="no-token">
        <h1>Ferry</h1>
        <p>
          Open Ferry from a terminal with <code>ferry open</code>; it opens this page with the key
          it needs.
        </p>
      </main>
    )
  }
  if (state.kind === 'loading') return <main aria-busy="true">Loading…</main>
  if (state.kind === 'error') {
    return (
      <main>
        <h1>Ferry</h1>
        <p role="alert" data-testid="error">
          {state.message}
        </p>
      </main>
    )
  }
  return (
    <main>
      <h1>Ferry</h1>
      <ServerList
        servers={state.servers}
        token={token}
        onChange={() => setVersion((current) => current + 1)}
      />
      <section>
        <h2>Tools</h2>
        <ul>
          {state.tools.map((tool) => (
            <li key={tool.name} data-testid="tool">
              {tool.name} — {tool.title ?? tool.description ?? ''}
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}
