// Reads an App's `ui://` resource within a time limit and checks it (one content item, the App
// MIME type, at most 1 MiB of UTF-8 HTML, well-formed CSP domains): for a finished tool call it
// becomes an `mcp_app` display, or stays plain with the reason in `appNotShown`. The same check
// tells the tool list ahead of any call. The model-visible result is never touched here.

import { ResourceNotFoundError } from '@modelcontextprotocol/client'
import { errorMessage } from '../errors.js'
import type { AppCsp, CallToolResult, DisplayResult } from '../protocol/index.js'
import { checkCspDomains } from './csp-domains.js'
import { APP_MIME_TYPE } from './ui-extension.js'

export const APP_HTML_LIMIT_BYTES = 1024 * 1024

/** Browser permissions an App may ask for; anything else it declares is dropped. */
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const

export interface CheckedApp {
  html: string
  csp: AppCsp
  permissions: Record<string, unknown>
  prefersBorder: boolean | null
}

export type AppCheck = { ok: true; app: CheckedApp } | { ok: false; reason: string }

/** Where an App resource is read from, and within what time. */
export interface AppSource {
  resourceUri: string
  timeoutMs: number
  /** Aborts the read, e.g. when the call is cancelled. */
  signal: AbortSignal
  /** Reads the resource on the tool's server. */
  read: (uri: string, options: { signal: AbortSignal }) => Promise<unknown>
  /** `_meta` of the resource's resources/list entry, used when the content has no `_meta.ui`. */
  listedMeta: () => unknown
}

export interface AppLoad extends AppSource {
  serverName: string
  /** The tool's name on its server, for the fallback text. */
  serverTool: string
  toolInput: Record<string, unknown>
  toolResult: CallToolResult
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** Reads and checks the App resource; never throws. */
export async function checkApp(source: AppSource): Promise<AppCheck> {
  try {
    const read = await readWithin(source)
    return read.ok
      ? checkAppResource(read.result, source.resourceUri, source.listedMeta())
      : { ok: false, reason: read.reason }
  } catch (error) {
    return { ok: false, reason: `checking ${source.resourceUri} failed: ${errorMessage(error)}` }
  }
}

/** What a plain display and the tool list say about an App that failed its check. */
export function appNotShown(checked: AppCheck): string | null {
  return checked.ok ? null : `App not shown: ${checked.reason}`
}

/** The display of a successful call of a tool with an App, from the check of its resource. */
export function appDisplay(load: AppLoad, checked: AppCheck): DisplayResult {
  if (!checked.ok) return { type: 'plain', appNotShown: `App not shown: ${checked.reason}` }
  return {
    type: 'mcp_app',
    serverName: load.serverName,
    resourceUri: load.resourceUri,
    ...checked.app,
    toolInput: load.toolInput,
    toolResult: load.toolResult,
    fallbackText: fallbackText(load),
  }
}

type ReadOutcome = { ok: true; result: unknown } | { ok: false; reason: string }

async function readWithin(load: AppSource): Promise<ReadOutcome> {
  const uri = load.resourceUri
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, load.timeoutMs)
  const cancel = () => controller.abort()
  load.signal.addEventListener('abort', cancel, { once: true })
  // The bound holds even if the read does not notice the abort.
  const aborted = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
  })
  try {
    if (load.signal.aborted) controller.abort()
    return {
      ok: true,
      result: await Promise.race([load.read(uri, { signal: controller.signal }), aborted]),
    }
  } catch (error) {
    if (timedOut)
      return { ok: false, reason: `reading ${uri} timed out after ${seconds(load.timeoutMs)}` }
    if (load.signal.aborted) return { ok: false, reason: `reading ${uri} was cancelled` }
    if (error instanceof ResourceNotFoundError) {
      return { ok: false, reason: `the server has no resource ${uri}` }
    }
    return { ok: false, reason: `reading ${uri} failed: ${clip(errorMessage(error))}` }
  } finally {
    clearTimeout(timer)
    load.signal.removeEventListener('abort', cancel)
    aborted.catch(() => {})
  }
}

/** Checks a `resources/read` result for `uri`; `listedMeta` is the resources/list entry's `_meta`. */
export function checkAppResource(result: unknown, uri: string, listedMeta?: unknown): AppCheck {
  const contents = record(result)?.contents
  if (!Array.isArray(contents)) return { ok: false, reason: `resource ${uri} has no contents list` }
  if (contents.length !== 1) {
    return {
      ok: false,
      reason: `resource ${uri} has ${contents.length} content items, expected exactly 1`,
    }
  }
  const item = record(contents[0])
  if (item === undefined)
    return { ok: false, reason: `resource ${uri} has a content item that is not an object` }

  const mimeType = item.mimeType
  if (typeof mimeType !== 'string') {
    return { ok: false, reason: `resource has no MIME type, expected ${APP_MIME_TYPE}` }
  }
  if (!isAppMimeType(mimeType)) {
    return {
      ok: false,
      reason: `resource has MIME type ${clip(mimeType, 100)}, expected ${APP_MIME_TYPE}`,
    }
  }

  const html = decodeHtml(item)
  if (!html.ok) return html

  const ui = item._meta === undefined ? undefined : record(item._meta)?.ui
  const meta = ui ?? record(listedMeta)?.ui
  if (meta === undefined)
    return { ok: true, app: { html: html.html, csp: {}, permissions: {}, prefersBorder: null } }
  const uiMeta = record(meta)
  if (uiMeta === undefined) return { ok: false, reason: 'resource _meta.ui is not an object' }
  const csp = checkCspDomains(uiMeta.csp)
  if (!csp.ok) return { ok: false, reason: `resource CSP is refused: ${csp.reason}` }
  const permissions = checkPermissions(uiMeta.permissions)
  if (permissions === undefined) {
    return { ok: false, reason: 'resource _meta.ui.permissions is not an object' }
  }
  const prefersBorder = typeof uiMeta.prefersBorder === 'boolean' ? uiMeta.prefersBorder : null
  return { ok: true, app: { html: html.html, csp: csp.csp, permissions, prefersBorder } }
}

/** `text/html;profile=mcp-app`, allowing spaces, letter case and a UTF-8 charset parameter. */
export function isAppMimeType(mimeType: string): boolean {
  const [type, ...parameters] = mimeType.split(';').map((part) => part.trim())
  if (type?.toLowerCase() !== 'text/html') return false
  let profile = false
  for (const parameter of parameters) {
    const [key = '', value = ''] = parameter.split('=').map((part) => part.trim())
    const unquoted = value.replace(/^"(.*)"$/, '$1')
    if (key.toLowerCase() === 'profile' && unquoted === 'mcp-app') profile = true
    else if (key.toLowerCase() !== 'charset' || unquoted.toLowerCase() !== 'utf-8') return false
  }
  return profile
}

type Decoded = { ok: true; html: string } | { ok: false; reason: string }

function decodeHtml(item: Record<string, unknown>): Decoded {
  if (typeof item.text === 'string') {
    const size = Buffer.byteLength(item.text, 'utf8')
    return size > APP_HTML_LIMIT_BYTES ? tooBig(size) : { ok: true, html: item.text }
  }
  if (typeof item.blob !== 'string') {
    return { ok: false, reason: 'resource has neither text nor a base64 blob' }
  }
  const blob = item.blob
  if (blob.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(blob)) {
    return { ok: false, reason: 'resource blob is not valid base64' }
  }
  const size = (blob.length / 4) * 3 - (blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0)
  if (size > APP_HTML_LIMIT_BYTES) return tooBig(size)
  try {
    // Bytes first, then a strict UTF-8 decode: invalid sequences are an error, not U+FFFD.
    const html = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'))
    return { ok: true, html }
  } catch {
    return { ok: false, reason: 'resource blob is not valid UTF-8' }
  }
}

function tooBig(bytes: number): Decoded {
  // Rounded up, so that anything over the limit never reads as "1 MiB".
  const mib = Math.ceil((bytes / APP_HTML_LIMIT_BYTES) * 10) / 10
  return { ok: false, reason: `resource is ${mib} MiB, limit 1 MiB` }
}

function checkPermissions(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return {}
  const declared = record(value)
  if (declared === undefined) return undefined
  const out: Record<string, unknown> = {}
  for (const name of PERMISSIONS) {
    if (record(declared[name]) !== undefined) out[name] = {}
  }
  return out
}

function fallbackText(load: AppLoad): string {
  const content = Array.isArray(load.toolResult.content) ? load.toolResult.content : []
  const texts = content.flatMap((block) => {
    const text = record(block)
    return text?.type === 'text' && typeof text.text === 'string' ? [text.text] : []
  })
  if (texts.length > 0) return texts.join('\n')
  return `${load.serverTool} on "${load.serverName}" returned no text; its App shows the result`
}

function seconds(ms: number): string {
  return `${ms / 1000} s`
}

function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
