// The WebShell: the session being followed, the servers and their tools, and the live transcript.
// Without a token it says how to get one; a refused token gets a clear message, not a blank page.

import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type {
  InputAnswer,
  SessionInfo,
  ServerInfo,
  StatusResponse,
  ToolInfo,
} from '../../daemon/src/protocol/index.js'
import { ApiError, api } from './api.js'
import { liveApps } from './apps/live-apps.js'
import type { CallActions } from './CallCard.js'
import { InputHost } from './inputs/InputHost.js'
import { ServerList, ServerSummary } from './ServerList.js'
import { SessionBar, type SessionActions } from './SessionBar.js'
import { randomHex, ShellStream, type Connection } from './stream.js'
import { sessionInUrl, showSessionInUrl } from './token.js'
import { ToolsPanel } from './ToolsPanel.js'
import { Transcript } from './Transcript.js'
import { TranscriptModel } from './transcript.js'

const FRAME_MS = 16

const REFUSED_TOKEN =
  'This page’s token was refused. Run `ferry open` in a terminal and use the link it prints.'

function describeFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return REFUSED_TOKEN
  return `Ferry could not load: ${(error as Error).message}`
}

function NoToken() {
  return (
    <main class="standalone" data-testid="no-token">
      <h1>Ferry</h1>
      <p>
        Open Ferry from a terminal with <code>ferry open</code>; it opens this page with the key it
        needs.
      </p>
    </main>
  )
}

function ConnectionBadge({ connection }: { connection: Connection }) {
  const text =
    connection.state === 'live'
      ? 'Live'
      : connection.state === 'connecting'
        ? 'Connecting…'
        : connection.state === 'reconnecting'
          ? `Reconnecting (${connection.why})…`
          : 'Disconnected'
  return (
    <span
      class={`connection connection-${connection.state}`}
      data-testid="connection"
      data-state={connection.state}
      role="status"
    >
      {text}
    </span>
  )
}

/**
 * Renders at once when nothing was rendered this frame, else on the next frame: a lone event
 * reaches the screen without waiting for a frame, and a burst renders at most once per frame.
 */
function useFrameVersion(): [number, () => void] {
  const [version, setVersion] = useState(0)
  const queued = useRef(false)
  const last = useRef(0)
  const bump = useCallback(() => {
    if (queued.current) return
    const now = performance.now()
    if (now - last.current >= FRAME_MS) {
      last.current = now
      setVersion((current) => current + 1)
      return
    }
    queued.current = true
    requestAnimationFrame(() => {
      queued.current = false
      last.current = performance.now()
      setVersion((current) => current + 1)
    })
  }, [])
  return [version, bump]
}

/**
 * The transcript of `model`, rendered again as events change it: only this part of the page
 * renders per event, at most once a frame.
 */
function LiveTranscript({ model, actions }: { model: TranscriptModel; actions: CallActions }) {
  const [version, bump] = useFrameVersion()
  useEffect(() => {
    const stop = model.subscribe(bump)
    // Events applied between this render and the subscription are shown too.
    bump()
    return stop
  }, [model, bump])
  return (
    <Transcript
      rows={model.rows}
      version={version + model.version}
      lastSeq={model.lastSeq}
      actions={actions}
    />
  )
}

function Shell({ token }: { token: string }) {
  const [servers, setServers] = useState<ServerInfo[] | null>(null)
  const [tools, setTools] = useState<ToolInfo[]>([])
  const [sessions, setSessions] = useState<SessionInfo[]>([])
  const [session, setSession] = useState<string | undefined>(sessionInUrl)
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' })
  const [failure, setFailure] = useState<string | null>(null)
  const [model, setModel] = useState(() => new TranscriptModel())
  const modelRef = useRef(model)
  const stream = useRef<ShellStream | null>(null)

  const loadServers = useCallback(async (): Promise<boolean> => {
    try {
      const [nextServers, nextTools] = await Promise.all([
        api<ServerInfo[]>(token, '/servers'),
        api<ToolInfo[]>(token, '/tools'),
      ])
      setServers(nextServers)
      setTools(nextTools)
      return true
    } catch (error) {
      setFailure(describeFailure(error))
      return false
    }
  }, [token])
  const loadSessions = useCallback(async () => {
    try {
      setSessions(await api<SessionInfo[]>(token, '/sessions'))
    } catch (error) {
      setFailure(describeFailure(error))
    }
  }, [token])

  // Server status changes arrive as transcript events; the panels follow them, a burst at once.
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const refreshSoon = useCallback(() => {
    clearTimeout(refreshTimer.current)
    refreshTimer.current = setTimeout(() => void loadServers(), 150)
  }, [loadServers])

  useEffect(() => {
    let closed = false
    const shell = new ShellStream(token, sessionInUrl(), {
      onSubscribed(id, reset) {
        const shown = modelRef.current
        if ((reset && shown.lastSeq > 0) || (shown.session !== undefined && shown.session !== id)) {
          modelRef.current = new TranscriptModel(id)
          setModel(modelRef.current)
        } else {
          shown.session = id
        }
        setSession(id)
        showSessionInUrl(id, false)
        void loadServers()
      },
      onEvents(events) {
        modelRef.current.apply(events)
        if (events.some((event) => event.type === 'server.status')) refreshSoon()
      },
      onSnapshot(events) {
        modelRef.current = new TranscriptModel(modelRef.current.session)
        modelRef.current.apply(events)
        setModel(modelRef.current)
      },
      onConnection: setConnection,
      onFatal: setFailure,
    })
    stream.current = shell
    // The stream opens once the token has proved good, so a refused token costs one request.
    void Promise.all([loadServers(), api<StatusResponse>(token, '/status').catch(() => null)]).then(
      ([ok, status]) => {
        if (!ok || closed) return
        void loadSessions()
        const chosen = sessionInUrl() ?? status?.defaultSession
        // Known before any event arrives, so the transcript is not remade when it is confirmed.
        if (chosen !== undefined) modelRef.current.session = chosen
        shell.start(chosen)
      },
    )
    const onPopState = () => {
      const wanted = sessionInUrl()
      if (wanted !== undefined) void switchTo(wanted, false)
    }
    window.addEventListener('popstate', onPopState)
    // Apps follow the page's theme, which follows the OS.
    const dark = window.matchMedia('(prefers-color-scheme: dark)')
    const followTheme = () => liveApps.setTheme(dark.matches ? 'dark' : 'light')
    followTheme()
    dark.addEventListener('change', followTheme)
    const leaving = () => liveApps.leaving()
    window.addEventListener('pagehide', leaving)
    return () => {
      closed = true
      window.removeEventListener('popstate', onPopState)
      dark.removeEventListener('change', followTheme)
      window.removeEventListener('pagehide', leaving)
      shell.stop()
    }
  }, [token])

  const switchTo = async (id: string, push: boolean) => {
    if (id === modelRef.current.session) return
    // The Apps of the session being left are told before their frames go.
    await liveApps.closeAll()
    modelRef.current = new TranscriptModel(id)
    setModel(modelRef.current)
    setSession(id)
    showSessionInUrl(id, push)
    void stream.current?.switchTo(id)
  }

  const sessionActions: SessionActions = {
    switchTo: (id) => void switchTo(id, true),
    async create(name) {
      const created = await api<SessionInfo>(token, '/sessions', 'POST', { name })
      await loadSessions()
      await switchTo(created.id, true)
    },
    async rename(id, name) {
      await api<SessionInfo>(token, `/sessions/${encodeURIComponent(id)}`, 'PATCH', { name })
      await loadSessions()
    },
  }

  const callActions = useMemo<CallActions>(
    () => ({
      answer: (callId, outcome) => requireStream(stream.current).answer(callId, outcome),
      cancel: (callId) => requireStream(stream.current).cancel(callId),
    }),
    [],
  )
  const answerInput = useCallback(
    async (inputId: string, answer: InputAnswer) =>
      void (await requireStream(stream.current).answerInput(inputId, answer)),
    [],
  )
  const callTool = useCallback(async (tool: string, args: Record<string, unknown>) => {
    const id = `w${randomHex(8)}`
    try {
      await requireStream(stream.current).call(tool, args, id)
    } catch (error) {
      // A call that got as far as the transcript shows its own failure on its card.
      if (!modelRef.current.hasCall(id)) throw error
    }
  }, [])

  if (failure !== null && servers === null) {
    return (
      <main class="standalone">
        <h1>Ferry</h1>
        <p role="alert" data-testid="error">
          {failure}
        </p>
      </main>
    )
  }
  if (servers === null) return <main aria-busy="true">Loading…</main>
  return (
    <div class="shell">
      <header class="topbar">
        <h1>Ferry</h1>
        <SessionBar sessions={sessions} current={session} actions={sessionActions} />
        <ServerSummary servers={servers} />
        <ConnectionBadge connection={connection} />
      </header>
      {failure !== null && (
        <p class="banner error-text" role="alert" data-testid="error">
          {failure}
        </p>
      )}
      <aside class="sidebar">
        <ServerList servers={servers} token={token} onChange={() => void loadServers()} />
        <ToolsPanel tools={tools} onCall={callTool} />
      </aside>
      <main class="main">
        <h2 class="visually-hidden">Transcript</h2>
        <LiveTranscript key={model.session ?? ''} model={model} actions={callActions} />
      </main>
      <InputHost model={model} answer={answerInput} />
    </div>
  )
}

function requireStream(stream: ShellStream | null): ShellStream {
  if (stream === null) throw new Error('not connected')
  return stream
}

export function App({ token }: { token: string | null }) {
  return token === null ? <NoToken /> : <Shell token={token} />
}
