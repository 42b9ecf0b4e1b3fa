// Pages a server asks the person to open (URL-mode elicitation, or a call refused with -32042
// until one is opened), by their elicitation id, and the server's word that a page's work is done
// (`notifications/elicitation/complete`).

import { ProtocolError } from '@modelcontextprotocol/client'
import type { UrlQuestion } from './call-asker.js'

/** What a URL question withdrawn by the server's completion records as its reason. */
export const PAGE_DONE = "the server said the page's work is done"

/** MCP's error for a request that needs the person to open a page first. */
const URL_ELICITATION_REQUIRED = -32042

export class PageCompletions {
  private readonly waiting = new Map<string, AbortController>()

  /** Aborts (with `PAGE_DONE`) once the server says the page is done; `stop()` when no longer waiting. */
  watch(elicitationId: string): { signal: AbortSignal; stop: () => void } {
    const controller = new AbortController()
    this.waiting.set(elicitationId, controller)
    return {
      signal: controller.signal,
      stop: () => {
        if (this.waiting.get(elicitationId) === controller) this.waiting.delete(elicitationId)
      },
    }
  }

  complete(elicitationId: string): void {
    const controller = this.waiting.get(elicitationId)
    if (controller === undefined) return
    this.waiting.delete(elicitationId)
    controller.abort(PAGE_DONE)
  }
}

/** The pages a -32042 error asks to have opened first, or undefined for any other error. */
export function pagesFirst(
  error: unknown,
): Array<UrlQuestion & { elicitationId: string }> | undefined {
  if (!(error instanceof ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) return undefined
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations
  if (!Array.isArray(listed)) return undefined
  const pages = listed.flatMap((item: unknown) => {
    const page = item as Record<string, unknown>
    return typeof page.url === 'string' && typeof page.elicitationId === 'string'
      ? [
          {
            message: typeof page.message === 'string' ? page.message : 'Open this page',
            url: page.url,
            elicitationId: page.elicitationId,
          },
        ]
      : []
  })
  return pages.length > 0 ? pages : undefined
}
