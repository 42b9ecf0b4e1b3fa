// The Tools pane: the tools of the server picked (or of all), a searchable list grouped by server,
// each tool with its title, description and annotations, and a form generated from its input
// schema to call it. The list is virtualised (only rows near the viewport are in the DOM) so tens
// of thousands of tools cost no more.

import { defaultRangeExtractor } from '@tanstack/virtual-core'
import { memo } from 'preact/compat'
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import { useVirtualizer } from '../use-virtualizer.js'
import type { ToolAnnotations, ToolInfo } from '../../../daemon/src/protocol/index.js'
import { SchemaForm } from '../form/SchemaForm.js'
import type { PaneProps } from './pane-props.js'
import { useShell } from '../store/shell-context.js'
import { filterTools, indexTools, type ToolRow } from '../tool-index.js'

export type CallTool = (tool: string, args: Record<string, unknown>) => Promise<unknown>

/** Longer descriptions are cut in the list; an open tool shows its description whole. */
const DESCRIPTION_SHOWN = 600
/**
 * Heights in rem of a server's header and a closed tool (style.css gives them exactly these).
 * Fixed heights need no measuring: only open tools are measured, so a keystroke costs one pass
 * over the rows, not one per row that comes into view.
 */
const HEADER_REM = 2.5
const TOOL_REM = 5.75

function remPx(): number {
  return Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16
}

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

/** Whether the tool's results are shown by its App; why not is in the tag's title and, open, below. */
function AppTag({ tool }: { tool: ToolInfo }) {
  if (tool.uiResourceUri === null) return null
  const shown = tool.appNotShown === null
  return (
    <span
      class={shown ? 'tag tag-app' : 'tag tag-app-off'}
      data-testid="tool-app"
      title={tool.appNotShown ?? `Its results are shown by the App ${tool.uiResourceUri}`}
    >
      {shown ? 'App' : 'App not shown'}
    </span>
  )
}

const ToolItem = memo(function ToolItem({
  tool,
  open,
  onToggle,
  onCall,
}: {
  tool: ToolInfo
  open: boolean
  onToggle: (name: string) => void
  onCall: CallTool
}) {
  const [error, setError] = useState<string | null>(null)
  const submit = (args: Record<string, unknown>) => {
    setError(null)
    // The call shows up in the transcript at once and runs there (its reply only comes when it
    // ends), so the form is free for another call straight away; only a refusal lands here.
    onCall(tool.name, args).catch((failure: unknown) => setError((failure as Error).message))
  }
  const description = tool.description
  return (
    <div class={open ? 'tool' : 'tool tool-closed'} data-testid="tool" data-tool={tool.name}>
      <div class="tool-head">
        <button
          type="button"
          class="tool-toggle"
          aria-expanded={open}
          onClick={() => onToggle(tool.name)}
        >
          {tool.title ?? tool.tool}
        </button>
        <code class="tool-qualified">{tool.name}</code>
        <Annotations annotations={tool.annotations} />
        <AppTag tool={tool} />
      </div>
      {description !== null && (
        <p class="tool-description">
          {open || description.length <= DESCRIPTION_SHOWN
            ? description
            : `${description.slice(0, DESCRIPTION_SHOWN)}…`}
        </p>
      )}
      {open && tool.appNotShown !== null && (
        <p class="tool-app-note" data-testid="tool-app-not-shown">
          {tool.appNotShown}; its results are shown as text.
        </p>
      )}
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
    </div>
  )
})

// Qualified tool names are `[A-Za-z0-9_-]`, so a header's key never equals a tool's; a tool's
// key is its name as it is, with nothing built per row on each keystroke.
function rowKey(row: ToolRow): string {
  return row.kind === 'server' ? ` ${row.server}` : row.tool.name
}

export function ToolsPane({ server }: PaneProps) {
  const { store, controller } = useShell()
  const all = store.tools.value
  const tools = useMemo(
    () => (server === null ? all : all.filter((tool) => tool.server === server)),
    [all, server],
  )
  const onCall = controller.callTool
  const [query, setQuery] = useState('')
  // Kept here, not in the rows, so a tool's form survives its row leaving the DOM.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set())
  const index = useMemo(() => indexTools(tools), [tools])
  const rows = useMemo(() => filterTools(index, query), [index, query])
  const scroller = useRef<HTMLDivElement>(null)
  const search = useRef<HTMLInputElement>(null)
  const searchWanted = store.nav.searchWanted.value
  // Asked for by the skip link or `/`, also when this pane has just been shown for it.
  useEffect(() => {
    if (!searchWanted || search.current === null) return
    search.current.focus()
    store.nav.searchWanted.value = false
  }, [searchWanted, store])
  const focused = useRef<string | null>(null)
  const [focusTarget, setFocusTarget] = useState<number | null>(null)
  const [rem] = useState(remPx)
  const virtualizer = useVirtualizer(scroller, { estimateSize: () => 56, overscan: 12 })
  // Open tools (whose forms hold what was typed) and the focused one stay rendered off-screen.
  const kept: number[] = []
  rows.forEach((row, at) => {
    if (row.kind !== 'tool') return
    if (open.has(row.tool.name) || row.tool.name === focused.current || at === focusTarget) {
      kept.push(at)
    }
  })
  // New only when the rows change: the virtualiser lays out all rows again when these do.
  const rowOptions = useMemo(() => {
    return {
      count: rows.length,
      estimateSize: (at: number) => (rows[at]?.kind === 'server' ? HEADER_REM : TOOL_REM) * rem,
      getItemKey: (at: number) => {
        const row = rows[at]
        return row === undefined ? at : rowKey(row)
      },
    }
  }, [rows, rem])
  const rowsRef = useRef(rows)
  rowsRef.current = rows
  virtualizer.setOptions({
    ...virtualizer.options,
    ...rowOptions,
    rangeExtractor: (range) =>
      kept.length === 0
        ? defaultRangeExtractor(range)
        : [...new Set([...defaultRangeExtractor(range), ...kept])].sort((a, b) => a - b),
  })
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer])
  useLayoutEffect(() => virtualizer._willUpdate())
  // A new query starts at the top of its matches.
  useLayoutEffect(() => {
    if (scroller.current !== null) scroller.current.scrollTop = 0
  }, [query])
  // Keyboard moves wait for the target row to render before focusing it.
  useEffect(() => {
    if (focusTarget === null) return
    const button = scroller.current?.querySelector<HTMLElement>(
      `[data-index="${focusTarget}"] .tool-toggle`,
    )
    if (button !== null && button !== undefined) {
      button.focus()
      setFocusTarget(null)
    }
  })

  const toggle = useMemo(
    () => (name: string) =>
      setOpen((current) => {
        const next = new Set(current)
        if (next.delete(name)) {
          // Closed, the row has its fixed height again instead of the one measured open.
          const at = rowsRef.current.findIndex(
            (row) => row.kind === 'tool' && row.tool.name === name,
          )
          if (at >= 0) virtualizer.resizeItem(at, TOOL_REM * rem)
        } else {
          next.add(name)
        }
        return next
      }),
    [virtualizer, rem],
  )
  const toolIndexes = useMemo(
    () => rows.flatMap((row, at) => (row.kind === 'tool' ? [at] : [])),
    [rows],
  )
  const moveTo = (at: number | undefined) => {
    if (at === undefined) return
    virtualizer.scrollToIndex(at, { align: 'auto' })
    setFocusTarget(at)
  }
  const onListKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement
    if (!target.classList.contains('tool-toggle')) return
    const at = Number(target.closest('[data-index]')?.getAttribute('data-index'))
    const position = toolIndexes.indexOf(at)
    if (event.key === 'ArrowDown') moveTo(toolIndexes[position + 1])
    else if (event.key === 'ArrowUp') moveTo(toolIndexes[position - 1])
    else if (event.key === 'Home') moveTo(toolIndexes[0])
    else if (event.key === 'End') moveTo(toolIndexes[toolIndexes.length - 1])
    else return
    event.preventDefault()
  }

  const matches = toolIndexes.length
  return (
    <section class="panel tools-panel" aria-label="Tools">
      <input
        ref={search}
        id="tool-search"
        type="search"
        class="tool-search"
        placeholder="Search tools"
        aria-label="Search tools"
        aria-describedby="tools-count"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' || matches === 0) return
          event.preventDefault()
          moveTo(toolIndexes[0])
        }}
      />
      <p id="tools-count" class="tools-count" data-testid="tools-count" aria-live="polite">
        {tools.length === 0
          ? 'No tools yet.'
          : matches === 0
            ? 'No tool matches.'
            : query.trim() === ''
              ? `${matches.toLocaleString('en-US')} ${matches === 1 ? 'tool' : 'tools'}`
              : `${matches.toLocaleString('en-US')} of ${tools.length.toLocaleString('en-US')} tools match`}
      </p>
      <div
        ref={scroller}
        class="tool-list"
        data-testid="tool-list"
        onKeyDown={onListKey}
        onFocusIn={(event) => {
          const row = (event.target as HTMLElement).closest('[data-tool]')
          focused.current = row?.getAttribute('data-tool') ?? null
        }}
      >
        <div class="tool-list-inner" style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]
            if (row === undefined) return null
            const measured = row.kind === 'tool' && open.has(row.tool.name)
            return (
              <div
                key={rowKey(row)}
                data-index={item.index}
                ref={measured ? virtualizer.measureElement : undefined}
                class="tool-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.kind === 'server' ? (
                  <h3 class="tool-group">{row.server}</h3>
                ) : (
                  <ToolItem
                    tool={row.tool}
                    open={open.has(row.tool.name)}
                    onToggle={toggle}
                    onCall={onCall}
                  />
                )}
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
}
