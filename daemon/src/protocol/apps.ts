// What a live MCP App may ask of Ferry, and what Ferry records of it. An App runs in a WebShell tab;
// the tab opens it with the daemon (`app_open`), passes each of its requests on (`app_request`)
// and closes it (`app_close`). The daemon checks every request against the App's own server and
// its liveness, runs it through the same call path, broker and transcript as any other client's,
// and answers the tab, which answers the App. Browser-safe: the WebShell imports only the types.

import { z } from 'zod'
import {
  APP_CONTENT_BLOCKS_LIMIT,
  APP_DOWNLOAD_BYTES_LIMIT,
  APP_DOWNLOAD_FILES_LIMIT,
} from './app-limits.js'
import { logLevelSchema } from './observe.js'

/** A content block as MCP defines it (`text`, `image`, `audio`, `resource`, `resource_link`). */
const contentBlockSchema = z.looseObject({ type: z.string().min(1).max(64) })

export { APP_CONTENT_BLOCKS_LIMIT, APP_DOWNLOAD_BYTES_LIMIT, APP_DOWNLOAD_FILES_LIMIT }

const contentSchema = z.array(contentBlockSchema).max(APP_CONTENT_BLOCKS_LIMIT)

/** `tools/call`: a tool of the App's own server, by the name the server lists it under. */
export const appToolCallParamsSchema = z.object({
  name: z.string().min(1).max(256),
  arguments: z.record(z.string(), z.unknown()).optional(),
})

/** `resources/read`: a resource of the App's own server. */
export const appResourceReadParamsSchema = z.object({ uri: z.string().min(1).max(4096) })

/** `resources/list`, `resources/templates/list`: the App's own server's, as Ferry listed them. */
export const appListParamsSchema = z.object({ cursor: z.string().max(4096).optional() })

/** `ui/message`: a message the App adds to the conversation (Ferry drives no model; people see it). */
export const appMessageParamsSchema = z.object({
  role: z.literal('user'),
  content: contentSchema,
})

/** `ui/update-model-context`: what the App wants a model to know; the latest one per App is kept. */
export const appModelContextParamsSchema = z.object({
  content: contentSchema.optional(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
})

/** `notifications/message`: a log line from the App, shown under its card. */
export const appLogParamsSchema = z.object({
  level: logLevelSchema,
  logger: z.string().max(200).optional(),
  data: z.unknown(),
})

/** `ui/open-link`: sent by the tab after the person confirmed; http and https only. */
export const appOpenLinkParamsSchema = z.object({ url: z.string().min(1).max(8192) })

/** One file of a download, as the tab saved it after the person confirmed. */
export const appDownloadFileSchema = z.object({
  name: z.string().min(1).max(255),
  mimeType: z.string().max(255),
  bytes: z.number().int().min(0),
})

/** `ui/download-file`: what the person confirmed and the browser saved (names, types, sizes). */
export const appDownloadParamsSchema = z.object({
  files: z.array(appDownloadFileSchema).min(1).max(APP_DOWNLOAD_FILES_LIMIT),
})

/** Every request an App may make, each with its own params. */
export const appRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('tools/call'), params: appToolCallParamsSchema }),
  z.object({ method: z.literal('resources/read'), params: appResourceReadParamsSchema }),
  z.object({ method: z.literal('resources/list'), params: appListParamsSchema }),
  z.object({ method: z.literal('resources/templates/list'), params: appListParamsSchema }),
  z.object({ method: z.literal('ui/message'), params: appMessageParamsSchema }),
  z.object({ method: z.literal('ui/update-model-context'), params: appModelContextParamsSchema }),
  z.object({ method: z.literal('notifications/message'), params: appLogParamsSchema }),
  z.object({ method: z.literal('ui/open-link'), params: appOpenLinkParamsSchema }),
  z.object({ method: z.literal('ui/download-file'), params: appDownloadParamsSchema }),
])
export type AppRequest = z.infer<typeof appRequestSchema>
export type AppMethod = AppRequest['method']

/** Stream command: the tab shows the App of `callId` (a call of its session with an App result). */
export const appOpenSchema = z.object({
  type: z.literal('app_open'),
  ref: z.string().min(1).max(100),
  callId: z.string().min(1),
})
export type AppOpenCommand = z.infer<typeof appOpenSchema>

/** Stream command: the App was torn down or replaced; its requests are refused from now on. */
export const appCloseSchema = z.object({
  type: z.literal('app_close'),
  ref: z.string().min(1).max(100),
  appId: z.string().min(1),
})
export type AppCloseCommand = z.infer<typeof appCloseSchema>

/** Stream command: one request of a live App; the reply's `result` goes back to the App. */
export const appRequestCommandSchema = z.intersection(
  z.object({
    type: z.literal('app_request'),
    ref: z.string().min(1).max(100),
    appId: z.string().min(1),
  }),
  appRequestSchema,
)
export type AppRequestCommand = z.infer<typeof appRequestCommandSchema>

/** Set on `call.requested` when an App made the call: the call whose result rendered it. */
export interface AppOrigin {
  parentCallId: string
}

/** Transcript events of an App; `callId` is the call whose result rendered it. */
export type AppEventBody =
  | {
      type: 'app.message'
      callId: string
      /**
       * The qualified tool and the server of the App, for views to name it before its words (see
       * `app-says.ts`); absent in transcripts written before they were recorded.
       */
      tool?: string
      server?: string
      role: 'user'
      content: Record<string, unknown>[]
    }
  | {
      type: 'app.model_context'
      callId: string
      content?: Record<string, unknown>[]
      structuredContent?: Record<string, unknown>
    }
  | {
      type: 'app.log'
      callId: string
      level: z.infer<typeof logLevelSchema>
      logger?: string
      data: unknown
    }
  | { type: 'app.link_opened'; callId: string; url: string }
  | { type: 'app.download'; callId: string; files: z.infer<typeof appDownloadFileSchema>[] }

/** The latest model context of one App, as `GET /api/sessions/{id}/apps` lists it. */
export interface AppContextInfo {
  /** The call whose result rendered the App. */
  callId: string
  server: string
  resourceUri: string
  /** The latest `ui/update-model-context`; null when the App sent none. */
  modelContext: {
    seq: number
    time: string
    content?: Record<string, unknown>[]
    structuredContent?: Record<string, unknown>
  } | null
}

/** Answer of `GET /api/sessions/{id}/apps`: every App of the session, oldest first. */
export interface AppsResponse {
  session: string
  apps: AppContextInfo[]
}

/** The schema of an App stream command, chosen by its `type`; undefined for any other command. */
export function appCommandSchema(
  value: unknown,
): typeof appOpenSchema | typeof appCloseSchema | typeof appRequestCommandSchema | undefined {
  const type =
    typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined
  if (type === 'app_open') return appOpenSchema
  if (type === 'app_close') return appCloseSchema
  if (type === 'app_request') return appRequestCommandSchema
  return undefined
}

/** The `ref` of an App stream command, when it has a usable one, even if the rest does not fit. */
export function appCommandRef(value: unknown): string | undefined {
  if (appCommandSchema(value) === undefined) return undefined
  const ref = (value as { ref?: unknown }).ref
  return typeof ref === 'string' && ref.length >= 1 && ref.length <= 100 ? ref : undefined
}
