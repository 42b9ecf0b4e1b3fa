// The tools panel: a searchable list grouped by server, each tool with its title, description and
// annotations, and a form generated from its input schema to call it.

import { useMemo, useState } from 'preact/hooks'
import type { ToolAnnotations, ToolInfo } from '../../daemon/src/protocol/index.js'
import { SchemaForm } from './form/SchemaForm.js'

export type CallTool = (tool: string, args: Record<string, unknown>) => Promise<unknown>

const HINTS: { key: keyof ToolAnnotations; label: string; title: string }[] = [
  { key: 'readOnlyHint', label: 'read-only', title: 'Does not change anything' },
  { key: 'destructiveHint', label: 'destructive', title: 'May delete or overwrite' },
  { key: 'idempotentHint', label: 'idempotent', title: 'Calling again has no further effect' },
  { key: 'openWorldHint', label: 'open-world', title: 'Reaches outside systems' },
]

function Annotations({ annotations }: { annotations: ToolAnnotations }) {
  const shown = HINTS.filter((hint) => annotations[hint.key] === true)
  if (shown.length === 0) return null
  return (
    <span class="annotations">
      {shown.map((hint) => (
        <span key={hint.key} class={`tag tag-${hint.label}`} title={hint.title}>
          {hint.label}
        </span>
      ))}
    </span>
  )
}

function ToolItem({ tool, onCall }: { tool: ToolInfo; onCall: CallTool }) {
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = (args: Record<string, unknown>) => {
    setError(null)
    // The call shows up in the transcript at once and runs there (its reply only comes when it
    // ends), so the form is free for another call straight away; only a refusal lands here.
    onCall(tool.name, args).catch((failure: unknown) => setError((failure as Error).message))
  }
  return (
    <li class="tool" data-testid="tool" data-tool={tool.name}>
      <div class="tool-head">
        <button
          type="button"
          class="tool-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {tool.title ?? tool.tool}
        </button>
        <code class="tool-qualified">{tool.name}</code>
        <Annotations annotations={tool.annotations} />
      </div>
      {tool.description !== null && <p class="tool-description">{tool.description}</p>}
      {open && (
        <div class="tool-call">
          <SchemaForm schema={tool.inputSchema} idPrefix={`form-${tool.name}`} onSubmit={submit} />
          {error !== null && (
            <p class="error-text" role="alert" data-testid="call-error">
              {error}
            </p>
          )}
        </div>
      )}
    </li>
  )
}

function matches(tool: ToolInfo, query: string): boolean {
  if (query === '') return true
  const haystack = [tool.name, tool.tool, tool.server, tool.title ?? '', tool.description ?? '']
    .join(' ')
    .toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word))
}

export function ToolsPanel({ tools, onCall }: { tools: ToolInfo[]; onCall: CallTool }) {
  const [query, setQuery] = useState('')
  const groups = useMemo(() => {
    const byServer = new Map<string, ToolInfo[]>()
    for (const tool of tools) {
      if (!matches(tool, query.trim())) continue
      const group = byServer.get(tool.server) ?? []
      group.push(tool)
      byServer.set(tool.server, group)
    }
    return [...byServer.entries()].sort(([a], [b]) => a.localeCompare(b))
  }, [tools, query])
  return (
    <section class="panel tools-panel" aria-labelledby="tools-heading">
      <h2 id="tools-heading">Tools</h2>
      <input
        type="search"
        class="tool-search"
        placeholder="Search tools"
        aria-label="Search tools"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
      />
      {groups.length === 0 && (
        <p class="empty">{tools.length === 0 ? 'No tools yet.' : 'No tool matches.'}</p>
      )}
      {groups.map(([server, list]) => (
        <section key={server} class="tool-group" aria-label={`Tools of ${server}`}>
          <h3>{server}</h3>
          <ul>
            {list.map((tool) => (
              <ToolItem key={tool.name} tool={tool} onCall={onCall} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  )
}
