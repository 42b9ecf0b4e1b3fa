// The one interface every client of the daemon sees: REST, the stream, the gateway and MCP Apps
// (through their tab) reach the daemon's operations only through it. `catalog` is what the
// settings and connections offer (servers, tools, prompts, resources, settings, sign-in,
// observation); `sessions` is what happens inside sessions (calls, answers, transcripts, grants,
// subscriptions, Apps). A rule (a bound, a check, a confirmation) lives behind it, once.

import type { Ferry } from '../core/ferry.js'
import type { Session } from '../sessions/session.js'
import type { Sessions } from '../sessions/sessions.js'

export type { CallDone, CallOptions } from '../sessions/session-calls.js'
export type { AppHost } from '../sessions/app-host.js'
/** The result a client gets of a call the person denied. */
export { DENIED_RESULT } from '../sessions/call-runner.js'

/** What a client may do with one session: read it, follow it, record in it. */
export type SessionHandle = Pick<
  Session,
  | 'id'
  | 'closed'
  | 'info'
  | 'eventsAfter'
  | 'needsSnapshot'
  | 'subscribe'
  | 'answererCount'
  | 'emit'
>

/** The servers, their tools and offerings, the settings they come from, and their observers. */
export type CatalogApi = Pick<
  Ferry,
  | 'settings'
  | 'servers'
  | 'tools'
  | 'registry'
  | 'lookup'
  | 'refreshTools'
  | 'reconnect'
  | 'offerings'
  | 'onRegistryChange'
  | 'reload'
  | 'settingsHealth'
  | 'workspaceEntries'
  | 'approveWorkspace'
  | 'signIn'
  | 'logs'
  | 'observer'
  | 'serverConfig'
>

/** Calls, answers, transcripts, grants, resource subscriptions and Apps, inside sessions. */
export type SessionsApi = Pick<
  Sessions,
  | 'workspace'
  | 'call'
  | 'newCallId'
  | 'cancel'
  | 'answer'
  | 'answerInput'
  | 'resolve'
  | 'get'
  | 'all'
  | 'list'
  | 'create'
  | 'rename'
  | 'compact'
  | 'remove'
  | 'grants'
  | 'revokeGrants'
  | 'endClient'
  | 'getPrompt'
  | 'readResource'
  | 'complete'
  | 'replay'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'appContexts'
  | 'appHost'
>

export interface FerryService {
  catalog: CatalogApi
  sessions: SessionsApi
}
