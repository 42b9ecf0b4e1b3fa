// Wire types shared by the daemon, the CLI, the terminal client and the WebShell.
// Browser-safe: nothing from node: and nothing with side effects (dependency-cruiser checks it). Each
// module below is exported by name, so what the wire offers is read here in one place; the zod
// schemas are for the daemon and the CLI, and the WebShell imports types and zod-free constants.

import type { WireError } from './errors.js'
import type { InputAction, InputRequestedEvent } from './inputs.js'
import type { ServerLogLine } from './observe.js'
import type { WorkspaceEntry } from './workspace.js'
import type { ServerStatus } from './server-status.js'
import type { CallToolResult } from './events.js'
import type { SettingsProblem } from './settings.js'

export type ProtocolEra = 'legacy' | 'modern'
export type TransportKind = 'stdio' | 'streamable-http' | 'sse'

/** One row of `GET /api/servers` and `ferry servers --json`. */
export interface ServerInfo {
  name: string
  transport: TransportKind | null
  status: ServerStatus
  era: ProtocolEra | null
  protocolVersion: string | null
  negotiation: 'legacy' | 'auto'
  toolCount: number
  error: string | null
  restartCount: number
  /** While `awaiting_approval`: the entry as it would run, and the digest an approval sends. */
  approval: WorkspaceEntry | null
  /**
   * The directories the server is told of as its roots (absolute paths); null when Ferry does not
   * declare roots to it (no known workspace and none in its settings, or `"roots": false`);
   * `client` when they are the calling gateway client's (`"roots": "client"`).
   */
  roots: string[] | 'client' | null
  /** Tools the server lists that Ferry does not offer to models and the CLI, each with why. */
  hiddenTools: HiddenTool[]
  /**
   * What Ferry does not declare to this server, which a server may require before it lists a tool
   * at all (so such a tool may be missing without Ferry ever seeing it); empty when nothing.
   */
  undeclared: string[]
}

/** A tool its server lists that is not offered, and why (settings filters, App-only visibility). */
export interface HiddenTool {
  tool: string
  reason: string
}

export interface ToolAnnotations {
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
  title?: string
}

/** One row of `GET /api/tools` and `ferry tools --json`. */
export interface ToolInfo {
  /** Qualified name `mcp_{server}_{tool}`: unique, `[A-Za-z0-9_-]`, at most 64 characters. */
  name: string
  server: string
  /** The tool's name as the server declared it. */
  tool: string
  title: string | null
  description: string | null
  inputSchema: Record<string, unknown>
  annotations: ToolAnnotations
  /** The `ui://` resource the tool names as its MCP App, declared extension or not; null when none. */
  uiResourceUri: string | null
  /**
   * Why the tool's App cannot be shown (unreadable, wrong type, over 1 MiB, malformed CSP), from
   * the latest check of its resource, worded as a plain display's `appNotShown`
   * (`App not shown: …`); null when it can, before its first check ends, or when there is no App.
   */
  appNotShown: string | null
  /**
   * Whether the tool may run as an MCP task: its `execution.taskSupport`, or `optional` for a tool
   * of a server that declares the Tasks extension; null when it never does.
   */
  taskSupport: 'optional' | 'required' | null
  /** Why Ferry cannot call the tool on its server's current connection; null when it can. */
  notCallable: string | null
}

/** Body of `POST /api/call`. */
export interface CallRequest {
  tool: string
  arguments?: Record<string, unknown>
  /** Per-call timeout in ms (reset by progress); defaults to the server's `timeout`. */
  timeoutMs?: number
  /** Caller-chosen id (`[A-Za-z0-9_-]{1,64}`) for `POST /api/calls/{id}/cancel`; generated if absent. */
  id?: string
  /** Session to run in; the workspace's default session if absent. */
  session?: string
  /** Answer the confirmation with "allow once" up front. */
  yes?: boolean
  /** The caller answers a confirmation itself (streaming callers only). */
  interactive?: boolean
  client?: { kind: 'cli' | 'attach' | 'webshell' | 'api'; label: string }
}

export interface CallProgress {
  progress: number
  total?: number
  message?: string
}

/** One line of the `application/x-ndjson` answer to `POST /api/call`; the last is result or error. */
export type CallStreamLine =
  | { call: { id: string; session: string } }
  | { progress: CallProgress }
  | { confirmation: { callId: string; tool: string; server: string } }
  | { confirmed: { callId: string; outcome: string; by: string } }
  /** A question from the server to an `interactive` caller, answered through `/api/inputs/{id}/answer`. */
  | { input: InputRequestedEvent }
  | { inputResolved: { inputId: string; action: InputAction; by: string | null } }
  | { result: CallToolResult }
  | ErrorBody

export interface CallResponse {
  id: string
  session: string
  result: CallToolResult
}

export interface StatusResponse {
  pid: number
  version: string
  url: string
  stateDir: string
  startedAt: string
  /** The directory the daemon serves: its settings file and its default session. */
  workspace: string
  /** The workspace's default session, where calls go unless they name one. */
  defaultSession: string
  settingsFiles: string[]
  usingDemo: boolean
  warnings: string[]
  servers: { total: number; ready: number }
  /** Workspace servers that wait for `ferry workspace approve`, in settings order. */
  awaitingApproval: string[]
  /** Settings files that were read but gave no server, each with why. */
  filesWithoutServers: { file: string; reason: string }[]
  /**
   * Why the last reload could not read the settings, while no later reload has read them; the
   * settings read before stay in force meanwhile. Null when the settings in force are the latest.
   */
  settingsProblem: SettingsProblem | null
  /** The gateway: its URL, whether it serves, its phase and the legacy sessions open. */
  gateway: { url: string; enabled: boolean; phase: 1 | 2 | 3; legacySessions: number }
}

/** What `POST /api/workspace/approve` approved, and the reload that followed. */
export interface WorkspaceApproveResponse {
  /** The workspace settings file the approved entries come from. */
  file: string
  approved: string[]
  reload: ReloadResponse
}

/** What `POST /api/reload` changed, by server name. */
export interface ReloadResponse {
  /** New names. */
  added: string[]
  /** Enabled now, with a new connection: settings changed, or newly enabled. */
  reconnected: string[]
  /** Now disabled or invalid, where before it was enabled or off for another reason. */
  stopped: string[]
  /** Same state and connection settings as before (timeouts, trust and filters may change). */
  unchanged: string[]
  /** Names gone from the settings. */
  removed: string[]
  warnings: string[]
}

/** `GET /api/servers/{name}/logs?after=SEQ`. */
export interface LogsResponse {
  server: string
  /** The stderr tail as plain text. */
  lines: string[]
  /** Stderr and MCP log messages after `after`, in the order they came (see ServerLogLine). */
  entries: ServerLogLine[]
}

/** Every error body the API returns. */
export interface ErrorBody {
  error: WireError
}
/** One row of `GET /api/gateway/tokens` and `ferry gateway token list --json`; never the token. */
export interface GatewayTokenInfo {
  /** The client's name: `[A-Za-z0-9._-]{1,64}`, the originator of its calls in transcripts. */
  name: string
  /** Globs over server names this client sees and may call; `["*"]` for all. */
  servers: string[]
  /** Its one server's tools, prompts and resources keep their own names. */
  unprefixed: boolean
  /** The session its calls go to; null for the workspace's default session. */
  session: string | null
  /** Ferry also asks its confirmations of the client's own user (through elicitation). */
  confirmInClient: boolean
  /** Its tool list is a search tool (and the pinned tools) rather than every tool. */
  toolSearch: boolean
  createdAt: string
  lastUsedAt: string | null
}

/** Body of `POST /api/gateway/tokens`. */
export interface GatewayTokenCreateRequest {
  name: string
  servers?: string[]
  unprefixed?: boolean
  session?: string
  confirmInClient?: boolean
  toolSearch?: boolean
}

/** Answer of `POST /api/gateway/tokens`: the only time the token itself is shown. */
export interface GatewayTokenCreateResponse {
  token: string
  info: GatewayTokenInfo
  /** The gateway's URL, e.g. `http://127.0.0.1:4123/mcp`. */
  url: string
}

export {
  APP_CONTENT_BLOCKS_LIMIT,
  APP_DOWNLOAD_BYTES_LIMIT,
  APP_DOWNLOAD_FILES_LIMIT,
  appCloseSchema,
  appCommandRef,
  appCommandSchema,
  appDownloadFileSchema,
  appDownloadParamsSchema,
  appListParamsSchema,
  appLogParamsSchema,
  appMessageParamsSchema,
  appModelContextParamsSchema,
  appOpenLinkParamsSchema,
  appOpenSchema,
  appRequestCommandSchema,
  appRequestSchema,
  appResourceReadParamsSchema,
  appToolCallParamsSchema,
  type AppCloseCommand,
  type AppContextInfo,
  type AppEventBody,
  type AppMethod,
  type AppOpenCommand,
  type AppOrigin,
  type AppRequest,
  type AppRequestCommand,
  type AppsResponse,
} from './apps.js'
export {
  CALL_END_TYPES,
  isCallEnd,
  type AppCsp,
  type CallEndType,
  type CallToolResult,
  type ClientKind,
  type ClientRef,
  type ConfirmationOutcome,
  type DisplayResult,
  type EventsPage,
  type SessionInfo,
  type TranscriptEvent,
  type TranscriptEventBody,
} from './events.js'
export {
  grantInfoSchema,
  grantRevokeRequestSchema,
  grantRevokedSchema,
  grantScopeSchema,
  type GrantInfo,
  type GrantRevokeRequest,
  type GrantRevokeResponse,
  type GrantRevokedEvent,
  type GrantScope,
  type GrantsResponse,
} from './grants.js'
export {
  inputActionSchema,
  inputAnswerSchema,
  inputKindSchema,
  inputRequestedSchema,
  inputResolvedSchema,
  samplingReplySchema,
  samplingRequestSchema,
  STOP_REASONS,
  type InputAction,
  type InputAnswer,
  type InputAnswerResponse,
  type InputKind,
  type InputRequestedEvent,
  type InputResolvedEvent,
  type SamplingReply,
  type SamplingRequest,
} from './inputs.js'
export {
  LOG_LEVELS,
  followServerSchema,
  logLevelRequestSchema,
  logLevelSchema,
  serverLogSchema,
  traceEntrySchema,
  unfollowServerSchema,
  type FollowServerCommand,
  type LogLevel,
  type LogLevelRequest,
  type LogLevelResponse,
  type ServerLogEvent,
  type ServerLogLine,
  type TraceEntry,
  type TraceResponse,
  type UnfollowServerCommand,
} from './observe.js'
export {
  OFFERING_BODY_LIMIT,
  completionRequestSchema,
  promptArgumentSchema,
  promptFailedSchema,
  promptGetRequestSchema,
  promptGotSchema,
  promptInfoSchema,
  resourceInfoSchema,
  resourceReadFailedSchema,
  resourceReadSchema,
  resourceRequestSchema,
  resourceSubscribedSchema,
  resourceTemplateInfoSchema,
  resourceUpdatedSchema,
  storedBodySchema,
  type CompletionRequest,
  type CompletionResponse,
  type OfferingEvent,
  type PromptGetRequest,
  type PromptGetResponse,
  type PromptInfo,
  type PromptMessageBody,
  type ResourceContentsBody,
  type ResourceInfo,
  type ResourceReadResponse,
  type ResourceRequest,
  type ResourceSubscriptionResponse,
  type ResourceTemplateInfo,
  type ResourcesResponse,
  type StoredBody,
} from './offerings.js'
export {
  CLOSE_SHUTTING_DOWN,
  CLOSE_TOO_SLOW,
  STREAM_AUTH_PREFIX,
  STREAM_PROTOCOL,
  type StreamMessage,
} from './stream.js'
export {
  DIGEST_PATTERN,
  workspaceApproveRequestSchema,
  workspaceEntrySchema,
  workspaceFileSchema,
  workspaceResponseSchema,
  type WorkspaceApproveRequest,
  type WorkspaceEntry,
  type WorkspaceFile,
  type WorkspaceResponse,
} from './workspace.js'
export { serverStatusSchema, type ServerStatus } from './server-status.js'
export {
  replayParamsSchemas,
  replayRequestSchema,
  type ReplayParams,
  type ReplayRequest,
  type ReplayResponse,
} from './replay.js'
export {
  REPLAYABLE_METHODS,
  isReplayable,
  replayRefusal,
  type ReplayableMethod,
} from './replay-methods.js'
export {
  settingsFailedSchema,
  settingsProblemSchema,
  settingsRecoveredSchema,
  type SettingsFailedEvent,
  type SettingsProblem,
  type SettingsRecoveredEvent,
} from './settings.js'
export {
  loginOutcomeSchema,
  loginResponseSchema,
  logoutResponseSchema,
  type LoginOutcome,
  type LoginResponse,
  type LogoutResponse,
} from './sign-in.js'
export { callFields, clientSchema, outcomeSchema, type ClientClaim } from './wire.js'
export { ErrorCode, type WireError } from './errors.js'
export { RETRY_FIRST_MS, RETRY_MAX_MS, TranscriptCursor, retryDelay } from './transcript-cursor.js'
export { streamCommandSchema, type StreamCommand } from './stream-commands.js'
