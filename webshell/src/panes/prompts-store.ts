// The Prompts pane's state for one server: its prompts, the one chosen, and what getting it gave
// (the server's messages, as untrusted JSON).

import { signal, type ReadonlySignal } from '@preact/signals'
import type {
  CompletionResponse,
  PromptGetResponse,
  PromptInfo,
} from '../../../daemon/src/protocol/index.js'
import type { PaneClient } from './pane-client.js'

export type PromptListing =
  | { state: 'loading' }
  | { state: 'ready'; prompts: PromptInfo[] }
  | { state: 'failed'; message: string }

export type PromptOutcome =
  | { state: 'getting' }
  | { state: 'got'; arguments: Record<string, string>; result: unknown }
  | { state: 'failed'; message: string }

export interface PromptsStore {
  readonly server: string
  readonly listing: ReadonlySignal<PromptListing>
  readonly chosen: ReadonlySignal<PromptInfo | null>
  readonly outcome: ReadonlySignal<PromptOutcome | null>
  reload(): Promise<void>
  choose(prompt: PromptInfo | null): void
  /** Gets the chosen prompt with these arguments (empty values left out). */
  get(args: Record<string, string>): Promise<void>
  complete(
    prompt: PromptInfo,
    name: string,
    value: string,
    others: Record<string, string>,
  ): Promise<CompletionResponse>
}

export function createPromptsStore(client: PaneClient, server: string): PromptsStore {
  const listing = signal<PromptListing>({ state: 'loading' })
  const chosen = signal<PromptInfo | null>(null)
  const outcome = signal<PromptOutcome | null>(null)
  let gets = 0
  const store: PromptsStore = {
    server,
    listing,
    chosen,
    outcome,
    async reload() {
      try {
        const all = await client.request<PromptInfo[]>(
          `/prompts?server=${encodeURIComponent(server)}`,
        )
        const prompts = all.filter((prompt) => prompt.server === server)
        listing.value = { state: 'ready', prompts }
        const current = chosen.peek()
        if (current !== null) chosen.value = prompts.find((p) => p.name === current.name) ?? null
      } catch (error) {
        listing.value = { state: 'failed', message: (error as Error).message }
      }
    },
    choose(prompt) {
      gets += 1
      chosen.value = prompt
      outcome.value = null
    },
    async get(args) {
      const prompt = chosen.peek()
      if (prompt === null) return
      const got = ++gets
      const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== ''))
      const session = client.session()
      outcome.value = { state: 'getting' }
      try {
        const answer = await client.request<PromptGetResponse>('/prompts/get', 'POST', {
          name: prompt.name,
          arguments: given,
          client: client.identity,
          ...(session === undefined ? {} : { session }),
        })
        if (got === gets) outcome.value = { state: 'got', arguments: given, result: answer.result }
      } catch (error) {
        if (got === gets) outcome.value = { state: 'failed', message: (error as Error).message }
      }
    },
    complete(prompt, name, value, others) {
      return client.request<CompletionResponse>('/completions', 'POST', {
        server,
        ref: { type: 'ref/prompt', name: prompt.prompt },
        argument: { name, value },
        context: { arguments: others },
      })
    },
  }
  void store.reload()
  return store
}
