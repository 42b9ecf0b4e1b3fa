// Tells gateway clients which of their lists changed when the registry does: tools, prompts and
// resources each on its own, once per burst of changes (a reload, a server's several listings).
// It also logs, once each, a resource URI or template that two servers offer.

import { createHash } from 'node:crypto'
import type { CatalogApi } from '../service/ferry-service.js'
import type { Log } from '../log.js'
import { isModelVisible } from '../tools/registry.js'
import { resourceClaims } from './prompts-resources.js'

export type ListKind = 'tools' | 'prompts' | 'resources'

/** Changes that land within this long of the first are told as one. */
export const LIST_CHANGE_DEBOUNCE_MS = 50

/**
 * Runs `settle` once a burst of changes is over, never before it returns, and returns how to call
 * it off. A test that must know exactly which changes one notification tells supplies its own.
 */
export type Debounce = (settle: () => void) => () => void

/** Settles `LIST_CHANGE_DEBOUNCE_MS` after the first change of a burst. */
export const timedDebounce: Debounce = (settle) => {
  const timer = setTimeout(settle, LIST_CHANGE_DEBOUNCE_MS)
  return () => clearTimeout(timer)
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

export class ListChanges {
  private last: Record<ListKind, string>
  private cancelSettle: (() => void) | undefined
  private closed = false
  private readonly clashesLogged = new Set<string>()

  constructor(
    private readonly catalog: CatalogApi,
    private readonly notify: (lists: ReadonlySet<ListKind>) => void,
    private readonly log: Log,
    private readonly debounce: Debounce = timedDebounce,
  ) {
    this.last = this.digests()
    catalog.onRegistryChange(() => {
      if (this.closed) return
      this.cancelSettle ??= this.debounce(() => this.settle())
    })
  }

  close(): void {
    this.closed = true
    this.cancelSettle?.()
  }

  private settle(): void {
    this.cancelSettle = undefined
    const now = this.digests()
    const changed = new Set((Object.keys(now) as ListKind[]).filter((k) => now[k] !== this.last[k]))
    this.last = now
    if (changed.has('resources') || changed.has('tools')) this.logClashes()
    if (changed.size > 0) this.notify(changed)
  }

  /** What each list holds now, as every client's view is cut from it. */
  private digests(): Record<ListKind, string> {
    const offerings = this.catalog.offerings.all()
    return {
      tools: digest(
        this.catalog
          .registry()
          .filter(isModelVisible)
          .map((entry) => [entry.name, entry.definition]),
      ),
      prompts: digest(offerings.map(({ server, offered }) => [server, offered.prompts])),
      resources: digest(
        offerings.map(({ server, offered }) => [
          server,
          offered.resources,
          offered.resourceTemplates,
        ]),
      ),
    }
  }

  private logClashes(): void {
    const claims = resourceClaims(this.catalog, () => true)
    const clashes = [
      ...[...claims.uris].map(([uri, { servers }]) => ({ uri, servers })),
      ...[...claims.templates].map(([uriTemplate, { servers }]) => ({ uriTemplate, servers })),
    ]
    for (const clash of clashes) {
      if (clash.servers.length < 2) continue
      const key = JSON.stringify(clash)
      if (this.clashesLogged.has(key)) continue
      this.clashesLogged.add(key)
      this.log({ kind: 'gateway.resource_clash', ...clash, servedBy: clash.servers[0] })
    }
  }
}
