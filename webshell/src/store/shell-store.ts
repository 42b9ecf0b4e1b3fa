// The WebShell's shared state: signals made by `createShellStore`, handed down through
// `ShellContext` (store/shell-context.ts). The controller (shell-controller.ts) is the only writer
// of what comes from the daemon; components read signals and call the controller's actions.
//
// How parts plug in. A pane is a component taking `PaneProps` (panes/registry.ts); one entry in
// `PANES` names it and imports it lazily, and only registered panes are listed in the navigation.
// A question the person must answer (a confirmation, an input request) is an `OpenQuestion` kept
// by the transcript model (transcript.ts); one entry in `QUESTION_VIEWS` (questions/views.ts)
// renders its kind in the pinned question bar (questions/QuestionBar.tsx), which focuses the
// control the view marks `data-question-focus` and gives focus back once the question closes.
// Both read what they need through `useShell()`.

import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type {
  ServerInfo,
  SessionInfo,
  ServerStatus,
  SettingsProblem,
  ToolInfo,
} from '../../../daemon/src/protocol/index.js'
import { LiveApps } from '../apps/live-apps.js'
import type { Connection } from '../stream.js'
import { storedTheme, type ThemeChoice } from '../theme-choice.js'
import { createFilterStore, type FilterStore } from './filter-store.js'
import { createNavStore, type NavStore } from './nav-store.js'
import { createQuestionStore, type QuestionStore } from './question-store.js'
import { createTranscriptStore, type TranscriptStore } from './transcript-store.js'

export { NOT_ANSWERING } from '../stream.js'

export interface ShellStore {
  token: string
  connection: Signal<Connection>
  /** Null until the first load answers. */
  servers: Signal<ServerInfo[] | null>
  tools: Signal<ToolInfo[]>
  sessions: Signal<SessionInfo[]>
  /** The session being followed, once known. */
  session: Signal<string | undefined>
  /** What went wrong loading, in words for the person. */
  failure: Signal<string | null>
  /** Why the settings last asked for could not be read, until a reload reads them. */
  settingsProblem: Signal<SettingsProblem | null>
  /** The palette the person chose; `system` follows the OS. */
  theme: Signal<ThemeChoice>
  /** Ferry stopped answering: what is shown of servers and running calls may no longer be true. */
  daemonDown: ReadonlySignal<boolean>
  /** The servers list is from before Ferry went away and has not been read again since. */
  serversStale: Signal<boolean>
  transcript: TranscriptStore
  /** The event kinds hidden from the transcript. */
  filter: FilterStore
  questions: QuestionStore
  /** The MCP Apps on screen. */
  apps: LiveApps
  nav: NavStore
  /** Takes a `server.status` event's news into the list before it is read again. */
  noteServerStatus(server: string, status: ServerStatus, error: string | null): void
}

export function createShellStore(token: string, session?: string): ShellStore {
  const connection = signal<Connection>({ state: 'connecting' })
  const servers = signal<ServerInfo[] | null>(null)
  const serversStale = signal(false)
  const transcript = createTranscriptStore(session)
  return {
    token,
    connection,
    servers,
    tools: signal<ToolInfo[]>([]),
    sessions: signal<SessionInfo[]>([]),
    session: signal(session),
    failure: signal<string | null>(null),
    settingsProblem: signal<SettingsProblem | null>(null),
    theme: signal(storedTheme()),
    daemonDown: computed(() => connection.value.state === 'reconnecting'),
    serversStale,
    transcript,
    filter: createFilterStore(),
    questions: createQuestionStore(transcript),
    apps: new LiveApps(),
    nav: createNavStore(),
    noteServerStatus(name, status, error) {
      const list = servers.value
      if (list === null || !list.some((server) => server.name === name)) return
      servers.value = list.map((server) =>
        server.name === name ? { ...server, status, error } : server,
      )
    },
  }
}
