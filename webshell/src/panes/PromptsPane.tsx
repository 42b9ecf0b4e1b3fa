// The Prompts pane: one server's prompts, a form of the chosen prompt's arguments with the
// server's completions as the person types, and the messages getting it gave.

import type { JSX } from 'preact'
import { useMemo, useRef, useState } from 'preact/hooks'
import type { PromptInfo } from '../../../daemon/src/protocol/index.js'
import { CompletingInput } from './CompletingInput.js'
import type { PaneProps } from './pane-props.js'
import { usePaneClient } from './use-pane-client.js'
import { PromptMessages } from './PromptMessages.js'
import { createPromptsStore, type PromptsStore } from './prompts-store.js'
import './panes.css'
import { ListedPane } from './ListedPane.js'
import { PaneItems } from './PaneItems.js'

export function PromptsPane({ server }: PaneProps): JSX.Element | null {
  const client = usePaneClient()
  const store = useMemo(
    () => (server === null ? null : createPromptsStore(client, server)),
    [client, server],
  )
  return store === null ? null : <PromptsView store={store} />
}

export function PromptsView({ store }: { store: PromptsStore }): JSX.Element {
  const listing = store.listing.value
  const chosen = store.chosen.value
  return (
    <ListedPane
      testId="prompts-pane"
      title="Prompts"
      server={store.server}
      noun="prompts"
      listing={listing}
      onRefresh={() => void store.reload()}
      ready={() =>
        listing.state === 'ready' && (
          <div class="pane-columns">
            <nav class="pane-list" aria-label="Prompts">
              {listing.prompts.length === 0 && (
                <p class="pane-empty">This server offers no prompts.</p>
              )}
              <PaneItems
                testId="prompt"
                items={listing.prompts.map((prompt) => ({
                  key: prompt.name,
                  name: prompt.title ?? prompt.prompt,
                  detail: prompt.description === null ? null : { text: prompt.description },
                  current: chosen?.name === prompt.name,
                  data: { 'data-prompt': prompt.prompt },
                  onPick: () => store.choose(prompt),
                }))}
              />
            </nav>
            <div class="pane-detail">
              {chosen === null ? (
                <p class="pane-empty">Choose a prompt to fill in its arguments and get it.</p>
              ) : (
                <PromptForm key={chosen.name} store={store} prompt={chosen} />
              )}
              <Outcome store={store} />
            </div>
          </div>
        )
      }
    />
  )
}

function PromptForm({ store, prompt }: { store: PromptsStore; prompt: PromptInfo }) {
  const [values, setValues] = useState<Record<string, string>>({})
  // Completers read the other values when they ask, so each field's asker is made once.
  const latest = useRef(values)
  latest.current = values
  const askers = useMemo(
    () =>
      Object.fromEntries(
        prompt.arguments.map((argument) => [
          argument.name,
          (value: string) => {
            const others = Object.fromEntries(
              Object.entries(latest.current).filter(
                ([key, given]) => key !== argument.name && given !== '',
              ),
            )
            return store.complete(prompt, argument.name, value, others)
          },
        ]),
      ),
    [prompt, store],
  )
  const missing = prompt.arguments.filter(
    (argument) => argument.required && (values[argument.name] ?? '') === '',
  )
  return (
    <form
      class="pane-form"
      data-testid="prompt-form"
      onSubmit={(event) => {
        event.preventDefault()
        if (missing.length === 0) void store.get(values)
      }}
    >
      <h3>{prompt.title ?? prompt.prompt}</h3>
      <p class="pane-item-detail">
        <code>{prompt.name}</code>
      </p>
      {prompt.description !== null && <p class="field-description">{prompt.description}</p>}
      {prompt.arguments.length === 0 && <p class="pane-empty">This prompt takes no arguments.</p>}
      {prompt.arguments.map((argument) => (
        <CompletingInput
          key={argument.name}
          label={argument.name}
          required={argument.required}
          description={argument.description}
          value={values[argument.name] ?? ''}
          onInput={(value) => setValues((current) => ({ ...current, [argument.name]: value }))}
          complete={askers[argument.name]}
        />
      ))}
      {missing.length > 0 && (
        <p class="field-description" data-testid="prompt-missing">
          Required: {missing.map((argument) => argument.name).join(', ')}
        </p>
      )}
      <button type="submit" disabled={missing.length > 0}>
        Get prompt
      </button>
    </form>
  )
}

function Outcome({ store }: { store: PromptsStore }): JSX.Element | null {
  const outcome = store.outcome.value
  if (outcome === null) return null
  if (outcome.state === 'getting') return <p class="pane-empty">Getting the prompt…</p>
  if (outcome.state === 'failed') {
    return (
      <p class="error-text" role="alert" data-testid="prompt-error">
        {outcome.message}
      </p>
    )
  }
  return <PromptMessages result={outcome.result} />
}
