// The App resources a server's tools name, checked ahead of any call so the tool list can say why
// an App would not be shown: each distinct ui:// URI is read once its server's tools and resources
// are listed (and again after either list changes), within the server's `appResourceTimeoutMs`,
// a few at a time, never holding up readiness. Each call's own read of an App updates its entry.

import type { Tool } from '@modelcontextprotocol/client'
import { appNotShown, checkApp, type AppCheck } from '../apps/app-resource.js'
import { readToolUi } from '../apps/tool-ui.js'
import type { ServerConfig } from '../config/types.js'
import type { Log } from '../log.js'
import { isToolAllowed } from '../tools/registry.js'

/** Reads running at once per server; the rest wait their turn. */
export const APP_CHECKS_AT_ONCE = 4

export type AppRead = (uri: string, options: { signal: AbortSignal }) => Promise<unknown>

export interface AppCheckDeps {
  server: string
  /** `_meta` of the resource's resources/list entry. */
  listedMeta: (uri: string) => unknown
  timeoutMs: () => number
  log: Log
  /** The reason of some URI changed. */
  onChange: () => void
}

/** The distinct App resources the server's allowed tools name, in listing order. */
export function namedApps(tools: readonly Tool[], config: ServerConfig): string[] {
  const uris = tools
    .filter((tool) => isToolAllowed(config, tool.name))
    .map((tool) => readToolUi(tool).resourceUri)
  return [...new Set(uris.filter((uri): uri is string => uri !== null))]
}

export class AppChecks {
  /** The latest verdict per URI: `App not shown: <why>`, or null when it can be shown. */
  private readonly verdicts = new Map<string, string | null>()
  /** The newest check of each URI; an answer to an older one is dropped. */
  private readonly latest = new Map<string, number>()
  private readonly waiting = new Set<string>()
  private running = 0
  private counter = 0
  private controller = new AbortController()
  private read: AppRead = () => Promise.reject(new Error('no connection'))

  constructor(private readonly deps: AppCheckDeps) {}

  /** `App not shown: <why>` for the App at `uri`; null when it can be, or before its first check. */
  reasonFor(uri: string): string | null {
    return this.verdicts.get(uri) ?? null
  }

  /** Checks each of `uris` again through `read`; verdicts of URIs no longer named are forgotten. */
  checkAll(uris: readonly string[], read: AppRead): void {
    this.read = read
    const named = new Set(uris)
    for (const uri of [...this.verdicts.keys()]) {
      if (!named.has(uri)) this.verdicts.delete(uri)
    }
    for (const uri of uris) {
      this.latest.set(uri, ++this.counter)
      this.waiting.add(uri)
    }
    this.pump()
  }

  /** The check of a call's own read of `uri`, which supersedes any check still running. */
  record(uri: string, checked: AppCheck): void {
    this.latest.set(uri, ++this.counter)
    this.settle(uri, appNotShown(checked))
  }

  /** A new connection: checks in flight are abandoned and every verdict forgotten. */
  reset(): void {
    this.controller.abort()
    this.controller = new AbortController()
    this.waiting.clear()
    this.latest.clear()
    this.verdicts.clear()
  }

  private pump(): void {
    while (this.running < APP_CHECKS_AT_ONCE) {
      const uri = this.waiting.values().next().value
      if (uri === undefined) return
      this.waiting.delete(uri)
      this.running++
      void this.check(uri, this.latest.get(uri) ?? 0, this.controller.signal).finally(() => {
        this.running--
        this.pump()
      })
    }
  }

  private async check(uri: string, id: number, signal: AbortSignal): Promise<void> {
    const checked = await checkApp({
      resourceUri: uri,
      timeoutMs: this.deps.timeoutMs(),
      signal,
      read: this.read,
      listedMeta: () => this.deps.listedMeta(uri),
    })
    if (signal.aborted || this.latest.get(uri) !== id) return
    this.deps.log({
      kind: 'server.app_checked',
      server: this.deps.server,
      resourceUri: uri,
      ...(checked.ok ? { shown: true } : { shown: false, reason: checked.reason }),
    })
    this.settle(uri, appNotShown(checked))
  }

  private settle(uri: string, verdict: string | null): void {
    const before = this.reasonFor(uri)
    this.verdicts.set(uri, verdict)
    if (verdict !== before) this.deps.onChange()
  }
}
