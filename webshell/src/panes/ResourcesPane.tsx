// The Resources pane: one server's resources and templates, a form for a template's variables
// with completions as the person types, and the contents of the resource read (or handed over
// from a tool result), which the session can follow for updates.

import type { JSX } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { ResourceTemplateInfo } from '../../../daemon/src/protocol/index.js'
import { CompletingInput } from './CompletingInput.js'
import { useShell } from '../store/shell-context.js'
import type { PaneProps } from './pane-props.js'
import { usePaneClient } from './use-pane-client.js'
import { ResourceContents } from './ResourceContents.js'
import { createResourcesStore, type ResourcesStore } from './resources-store.js'
import { expandTemplate, templateVariables } from './uri-template.js'
import './panes.css'
import { ListedPane } from './ListedPane.js'
import { PaneItems } from './PaneItems.js'

export function ResourcesPane({ server }: PaneProps): JSX.Element | null {
  const client = usePaneClient()
  // A resource asked for from a tool result, shown once the pane has its server.
  const request = useShell().store.nav.resource.value
  const store = useMemo(
    () => (server === null ? null : createResourcesStore(client, server)),
    [client, server],
  )
  useEffect(() => () => store?.dispose(), [store])
  useEffect(() => {
    if (store === null || request === null || request.server !== store.server) return
    if (request.embedded !== undefined) store.showEmbedded(request.uri, request.embedded)
    else void store.read(request.uri)
  }, [store, request])
  return store === null ? null : <ResourcesView store={store} />
}

export function ResourcesView({ store }: { store: ResourcesStore }): JSX.Element {
  const listing = store.listing.value
  const [template, setTemplate] = useState<ResourceTemplateInfo | null>(null)
  const current = store.shown.value?.uri
  return (
    <ListedPane
      testId="resources-pane"
      title="Resources"
      server={store.server}
      noun="resources"
      listing={listing}
      onRefresh={() => void store.reload()}
      ready={() =>
        listing.state === 'ready' && (
          <div class="pane-columns">
            <nav class="pane-list" aria-label="Resources and templates">
              {listing.resources.length === 0 && listing.templates.length === 0 && (
                <p class="pane-empty">This server offers no resources.</p>
              )}
              {listing.resources.length > 0 && (
                <PaneItems
                  testId="resource"
                  items={listing.resources.map((resource) => ({
                    key: resource.uri,
                    name: resource.title ?? resource.name,
                    detail: { text: resource.uri, code: true },
                    current: current === resource.uri,
                    data: { 'data-uri': resource.uri },
                    onPick: () => {
                      setTemplate(null)
                      void store.read(resource.uri)
                    },
                  }))}
                />
              )}
              {listing.templates.length > 0 && (
                <>
                  <h3>Templates</h3>
                  <PaneItems
                    testId="template"
                    items={listing.templates.map((item) => ({
                      key: item.uriTemplate,
                      name: item.title ?? item.name,
                      detail: { text: item.uriTemplate, code: true },
                      current: template?.uriTemplate === item.uriTemplate,
                      data: { 'data-template': item.uriTemplate },
                      onPick: () => setTemplate(item),
                    }))}
                  />
                </>
              )}
            </nav>
            <div class="pane-detail">
              {template !== null && (
                <TemplateForm key={template.uriTemplate} store={store} template={template} />
              )}
              <Shown store={store} />
            </div>
          </div>
        )
      }
    />
  )
}

function TemplateForm(props: { store: ResourcesStore; template: ResourceTemplateInfo }) {
  const { store, template } = props
  const names = useMemo(() => templateVariables(template.uriTemplate), [template.uriTemplate])
  const [values, setValues] = useState<Record<string, string>>({})
  // Completers read the other values when they ask, so each field's asker is made once.
  const latest = useRef(values)
  latest.current = values
  const askers = useMemo(
    () =>
      Object.fromEntries(
        names.map((name) => [
          name,
          (value: string) => {
            const others = Object.fromEntries(
              Object.entries(latest.current).filter(([key, given]) => key !== name && given !== ''),
            )
            return store.complete(template.uriTemplate, name, value, others)
          },
        ]),
      ),
    [names, store, template.uriTemplate],
  )
  const uri = expandTemplate(template.uriTemplate, values)
  const missing = names.filter((name) => (values[name] ?? '') === '')
  return (
    <form
      class="pane-form"
      data-testid="template-form"
      onSubmit={(event) => {
        event.preventDefault()
        if (missing.length === 0) void store.read(uri)
      }}
    >
      <h3>{template.title ?? template.name}</h3>
      {template.description !== null && <p class="field-description">{template.description}</p>}
      {names.map((name) => (
        <CompletingInput
          key={name}
          label={name}
          required
          value={values[name] ?? ''}
          onInput={(value) => setValues((current) => ({ ...current, [name]: value }))}
          complete={askers[name]}
        />
      ))}
      <p class="pane-uri">
        <code data-testid="template-uri">{uri}</code>
      </p>
      <button type="submit" disabled={missing.length > 0}>
        Read
      </button>
    </form>
  )
}

function Shown({ store }: { store: ResourcesStore }): JSX.Element | null {
  const shown = store.shown.value
  const followed = store.followed.value
  const [error, setError] = useState<string | null>(null)
  if (shown === null) return <p class="pane-empty">Choose a resource to read it.</p>
  const following = followed.has(shown.uri)
  return (
    <article
      class="pane-shown"
      data-testid="resource-shown"
      data-uri={shown.uri}
      data-state={shown.state}
      aria-busy={shown.state === 'reading' ? 'true' : undefined}
    >
      <div class="pane-shown-head">
        <code class="pane-shown-uri">{shown.uri}</code>
        {shown.from === 'result' && <span class="result-meta">as the tool result embedded it</span>}
        <button type="button" onClick={() => void store.read(shown.uri)}>
          {shown.from === 'result' ? 'Read from the server' : 'Read again'}
        </button>
        <button
          type="button"
          aria-pressed={following}
          onClick={() => {
            setError(null)
            store
              .follow(shown.uri, !following)
              .catch((failure: unknown) => setError((failure as Error).message))
          }}
        >
          {following ? 'Stop following' : 'Follow updates'}
        </button>
      </div>
      {error !== null && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      {shown.state === 'reading' && <p class="pane-empty">Reading…</p>}
      {shown.state === 'failed' && (
        <p class="error-text" role="alert" data-testid="resource-error">
          {shown.message}
        </p>
      )}
      {shown.state === 'read' && <ResourceContents result={shown.result} />}
    </article>
  )
}
