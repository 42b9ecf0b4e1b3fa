// What the WebShell does, apart from drawing: loads servers, tools and sessions over REST, follows
// the session over the stream, and sends calls, answers and cancels. It is the only writer of the
// store's daemon-backed signals; components call its actions.

import { batch, effect } from '@preact/signals'
import type {
  ConfirmationOutcome,
  InputAnswer,
  LoginOutcome,
  LoginResponse,
  LogsResponse,
  ServerInfo,
  SessionInfo,
  StatusResponse,
  ToolInfo,
  TranscriptEvent,
  WorkspaceApproveRequest,
  WorkspaceApproveResponse,
} from '../../daemon/src/protocol/index.js'
import { ApiError, api } from './api.js'
import { startAppsEarly, warmAppsWhenIdle } from './apps/app-loader.js'
import type { OpenResource } from './panes/resource-request.js'
import { watchQuestionKeys } from './questions/question-guard.js'
import type { ShellStore } from './store/shell-store.js'
import { ShellStream, type AppChannel, type ServerFeed, type ServerFeedMessage } from './stream.js'
import { watchSearchKey } from './search-key.js'
import { randomHex } from './tab-label.js'
import { applyTheme, shownTheme, type ThemeChoice } from './theme-choice.js'
import { sessionInUrl, showSessionInUrl } from './token.js'

export interface ShellController {
  start(): void
  stop(): void
  /** Reads servers and tools again; false when that failed (the failure is in the store). */
  loadServers(): Promise<boolean>
  /** Reconnects a server, then loads the servers again. */
  reconnectServer(name: string): Promise<void>
  /** Approves a waiting workspace entry as it was shown (`digest`); the servers are loaded again either way. */
  approveEntry(name: string, digest: string): Promise<void>
  /** Starts a server's sign-in: the page the person signs in on. */
  startSignIn(name: string): Promise<LoginResponse>
  /** Waits until the sign-in started ends, then loads the servers again. */
  finishSignIn(name: string): Promise<LoginOutcome>
  /** The last lines a server wrote to stderr. */
  serverLogs(name: string): Promise<string[]>
  /** Shows the Tools pane and puts focus in its search. */
  focusToolSearch(): void
  /** Shows the page (and its Apps) in `choice`, kept for the next load. */
  setTheme(choice: ThemeChoice): void
  loadSessions(): Promise<void>
  switchSession(id: string, push: boolean): Promise<void>
  createSession(name: string): Promise<void>
  renameSession(id: string, name: string): Promise<void>
  /** Starts a call; rejects only when it was refused before reaching the transcript. */
  callTool(tool: string, args: Record<string, unknown>): Promise<void>
  answer(callId: string, outcome: ConfirmationOutcome): Promise<unknown>
  answerInput(inputId: string, answer: InputAnswer): Promise<unknown>
  cancel(callId: string): Promise<unknown>
  /** The daemon's side of the MCP Apps on screen: opening, closing, and their requests. */
  apps: AppChannel
  /** A REST request with this tab's token. */
  api<T>(path: string, method?: string, body?: unknown): Promise<T>
  /** Shows a resource in its server's Resources pane. */
  openResource: OpenResource
  /** Hands `listener` the shown session's new events until the returned function is called. */
  onEvents(listener: (events: readonly TranscriptEvent[]) => void): () => void
  /**
   * Hands `listener` each new trace entry or log line of `server` (the `feeds` asked for) until
   * the returned function is called; several listeners of one server share one follow.
   */
  followServer(
    server: string,
    feeds: ServerFeed[],
    listener: (message: ServerFeedMessage) => void,
  ): () => void
}

interface FeedListener {
  feeds: ServerFeed[]
  listener: (message: ServerFeedMessage) => void
}

const FEED_OF: Record<ServerFeedMessage['type'], ServerFeed> = {
  trace: 'trace',
  server_log: 'logs',
}

const REFUSED_TOKEN =
  'This page’s token was refused. Run `ferry open` in a terminal and use the link it prints.'
/** Server status changes come in bursts; the list is read again once a burst is over. */
const REFRESH_MS = 150

export function describeFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return REFUSED_TOKEN
  return `Ferry could not load: ${(error as Error).message}`
}

export function createShellController(store: ShellStore): ShellController {
  const { token, transcript, apps } = store
  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const cleanups: (() => void)[] = []
  const eventListeners = new Set<(events: readonly TranscriptEvent[]) => void>()
  const feedListeners = new Map<string, Set<FeedListener>>()

  const loadServers = async (): Promise<boolean> => {
    try {
      const [servers, tools] = await Promise.all([
        api<ServerInfo[]>(token, '/servers'),
        api<ToolInfo[]>(token, '/tools'),
      ])
      batch(() => {
        store.servers.value = servers
        store.tools.value = tools
        store.serversStale.value = false
      })
      warmAppsWhenIdle(tools)
      return true
    } catch (error) {
      store.failure.value = describeFailure(error)
      return false
    }
  }
  const refreshSoon = () => {
    clearTimeout(refreshTimer)
    refreshTimer = setTimeout(() => void loadServers(), REFRESH_MS)
  }
  /** Only the newest read of the status counts: an older answer may arrive after it. */
  let statusReads = 0
  const takeStatus = (status: StatusResponse) => {
    store.settingsProblem.value = status.settingsProblem ?? null
  }
  const loadStatus = async () => {
    const read = ++statusReads
    try {
      const status = await api<StatusResponse>(token, '/status')
      if (read === statusReads) takeStatus(status)
    } catch {
      // The stream says when Ferry is away, and a reconnection reads the status again.
    }
  }
  let subscribedBefore = false
  const loadSessions = async () => {
    try {
      store.sessions.value = await api<SessionInfo[]>(token, '/sessions')
    } catch (error) {
      store.failure.value = describeFailure(error)
    }
  }

  const stream = new ShellStream(token, sessionInUrl(), {
    onSubscribed(id, reset) {
      const shown = transcript.model.value
      // A model that has not yet shown anything is as good as a new one: remade, never changed.
      if ((reset && shown.lastSeq > 0) || shown.session !== id) transcript.reset(id)
      store.session.value = id
      showSessionInUrl(id, false)
      void loadServers()
      // The first status came with the start; a daemon come back may have other settings.
      if (subscribedBefore) void loadStatus()
      subscribedBefore = true
    },
    onEvents(events) {
      // Before the cards render, so an App's frame loads while its card does.
      startAppsEarly(events)
      transcript.apply(events)
      for (const listener of eventListeners) listener(events)
      let statusChanged = false
      // The status says whether the problem is still there (a replay may bring one long fixed).
      if (events.some((event) => event.type.startsWith('settings.'))) void loadStatus()
      for (const event of events) {
        if (event.type !== 'server.status') continue
        statusChanged = true
        store.noteServerStatus(event.server, event.status, event.error)
      }
      if (statusChanged) refreshSoon()
    },
    onSnapshot(events) {
      transcript.reset(transcript.model.value.session)
      transcript.apply(events)
    },
    onConnection(connection) {
      batch(() => {
        store.connection.value = connection
        if (connection.state === 'reconnecting') store.serversStale.value = true
      })
    },
    onFatal(message) {
      store.failure.value = message
    },
    onServerFeed(message) {
      for (const entry of feedListeners.get(message.server) ?? []) {
        if (entry.feeds.includes(FEED_OF[message.type])) entry.listener(message)
      }
    },
  })

  /** Asks the daemon for the union of what the server's listeners want, or stops following. */
  const refollow = (server: string) => {
    const listeners = feedListeners.get(server)
    // Sent again on reconnection by the stream; a refusal shows as a missing feed, nothing worse.
    const ignore = () => {}
    if (listeners === undefined || listeners.size === 0) {
      feedListeners.delete(server)
      stream.unfollow(server).catch(ignore)
      return
    }
    const feeds = [...new Set([...listeners].flatMap((entry) => entry.feeds))]
    stream.follow(server, feeds).catch(ignore)
  }

  const switchSession = async (id: string, push: boolean) => {
    if (id === transcript.model.value.session) return
    // The Apps of the session being left are told before their frames go.
    await apps.closeAll()
    batch(() => {
      transcript.reset(id)
      store.session.value = id
    })
    showSessionInUrl(id, push)
    void stream.switchTo(id)
  }

  const controller: ShellController = {
    start() {
      // The stream opens once the token has proved good, so a refused token costs one request.
      void Promise.all([
        loadServers(),
        api<StatusResponse>(token, '/status').catch(() => null),
      ]).then(([ok, status]) => {
        if (!ok || stopped) return
        if (status !== null && statusReads === 0) takeStatus(status)
        void loadSessions()
        const chosen = sessionInUrl() ?? status?.defaultSession
        // Known before any event arrives, so the transcript is not remade when it is confirmed.
        if (chosen !== undefined) transcript.reset(chosen)
        stream.start(chosen)
      })
      const onPopState = () => {
        const wanted = sessionInUrl()
        if (wanted !== undefined) void switchSession(wanted, false)
      }
      window.addEventListener('popstate', onPopState)
      // Apps follow the page's theme: the person's choice, else the OS's.
      const dark = window.matchMedia('(prefers-color-scheme: dark)')
      const followTheme = () => apps.setTheme(shownTheme(store.theme.value, dark.matches))
      const stopFollowing = effect(followTheme)
      dark.addEventListener('change', followTheme)
      const leaving = () => apps.leaving()
      window.addEventListener('pagehide', leaving)
      cleanups.push(
        watchQuestionKeys(document),
        watchSearchKey(document, () => controller.focusToolSearch()),
        () => window.removeEventListener('popstate', onPopState),
        stopFollowing,
        () => dark.removeEventListener('change', followTheme),
        () => window.removeEventListener('pagehide', leaving),
      )
    },
    stop() {
      stopped = true
      clearTimeout(refreshTimer)
      for (const cleanup of cleanups.splice(0)) cleanup()
      stream.stop()
    },
    loadServers,
    loadSessions,
    switchSession,
    async reconnectServer(name) {
      await api<ServerInfo[]>(token, `/servers/${encodeURIComponent(name)}/reconnect`, 'POST')
      await loadServers()
    },
    async approveEntry(name, digest) {
      const body: WorkspaceApproveRequest = { entries: [{ name, digest }] }
      try {
        await api<WorkspaceApproveResponse>(token, '/workspace/approve', 'POST', body)
      } finally {
        await loadServers()
      }
    },
    startSignIn: (name) =>
      api<LoginResponse>(token, `/servers/${encodeURIComponent(name)}/login`, 'POST'),
    async finishSignIn(name) {
      const path = `/servers/${encodeURIComponent(name)}/login/wait`
      let outcome = await api<LoginOutcome>(token, path, 'POST')
      while (outcome.pending) outcome = await api<LoginOutcome>(token, path, 'POST')
      await loadServers()
      return outcome
    },
    async serverLogs(name) {
      return (await api<LogsResponse>(token, `/servers/${encodeURIComponent(name)}/logs`)).lines
    },
    focusToolSearch() {
      batch(() => {
        store.nav.pane.value = 'tools'
        store.nav.searchWanted.value = true
      })
    },
    setTheme(choice) {
      // The page first: Apps are given its colours as drawn.
      applyTheme(choice)
      store.theme.value = choice
    },
    async createSession(name) {
      const created = await api<SessionInfo>(token, '/sessions', 'POST', { name })
      await loadSessions()
      await switchSession(created.id, true)
    },
    async renameSession(id, name) {
      await api<SessionInfo>(token, `/sessions/${encodeURIComponent(id)}`, 'PATCH', { name })
      await loadSessions()
    },
    async callTool(tool, args) {
      const id = `w${randomHex(8)}`
      store.questions.noteStarted(id)
      try {
        await stream.call(tool, args, id)
      } catch (error) {
        // A call that got as far as the transcript shows its own failure on its card.
        if (!transcript.model.value.hasCall(id)) throw error
      }
    },
    answer: (callId, outcome) => stream.answer(callId, outcome),
    answerInput: (inputId, answer) => stream.answerInput(inputId, answer),
    cancel: (callId) => stream.cancel(callId),
    apps: stream,
    api: (path, method, body) => api(token, path, method, body),
    openResource(request) {
      batch(() => {
        store.nav.server.value = request.server
        store.nav.pane.value = 'resources'
        store.nav.resource.value = {
          ...request,
          nonce: (store.nav.resource.peek()?.nonce ?? 0) + 1,
        }
      })
    },
    onEvents(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    followServer(server, feeds, listener) {
      const entry = { feeds, listener }
      const listeners = feedListeners.get(server) ?? new Set<FeedListener>()
      feedListeners.set(server, listeners)
      listeners.add(entry)
      refollow(server)
      return () => {
        listeners.delete(entry)
        refollow(server)
      }
    },
  }
  return controller
}
