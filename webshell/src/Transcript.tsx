// The live transcript: a virtualised list of rows (only those near the viewport are in the DOM),
// measured as they render, that follows new events while the reader is at the bottom.

import { defaultRangeExtractor } from '@tanstack/virtual-core'
import { memo } from 'preact/compat'
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import { useVirtualizer } from './use-virtualizer.js'
import { MAX_LIVE_APPS, type LiveApps } from './apps/live-apps.js'
import { CallCard } from './CallCard.js'
import { EventLine } from './EventLine.js'
import { InputLine } from './inputs/InputLine.js'
import { EmptyTranscript } from './EmptyTranscript.js'
import { useShell } from './store/shell-context.js'
import type { CallRow, NoticeRow, Row, StatusRow } from './transcript.js'

const ESTIMATED_ROW_PX = 120

function NoticeLine({ row }: { row: NoticeRow }) {
  return (
    <p class={`notice notice-${row.level}`} data-testid="notice">
      <time dateTime={row.time}>{clock(row.time)}</time> {row.message}
    </p>
  )
}

function StatusLine({ row }: { row: StatusRow }) {
  return (
    <p class="status-line" data-testid="status-line">
      <time dateTime={row.time}>{clock(row.time)}</time> Server <strong>{row.server}</strong> is{' '}
      <span class={`pill pill-${row.status}`}>{row.status}</span>
      {row.error !== null && <span class="status-error"> — {row.error}</span>}
    </p>
  )
}

const RowView = memo(function RowView({ row }: { row: Row }) {
  if (row.kind === 'call') return <CallCard row={row} />
  if (row.kind === 'notice') return <NoticeLine row={row} />
  if (row.kind === 'input') return <InputLine input={row.input} />
  if (row.kind === 'line') return <EventLine row={row} />
  return <StatusLine row={row} />
})

function hasLiveApp(row: Row, liveApps: LiveApps): boolean {
  return (
    row.kind === 'call' &&
    row.display?.type === 'mcp_app' &&
    row.display.html !== '' &&
    !liveApps.isClosed(row.callId)
  )
}

export function clock(time: string): string {
  return new Date(time).toLocaleTimeString()
}

/** The session's transcript, rendered again when the store's frame counter moves. */
export function LiveTranscript() {
  const { transcript } = useShell().store
  const model = transcript.model.value
  const frame = transcript.frame.value
  return (
    <Transcript
      key={model.session ?? ''}
      rows={model.rows}
      calls={model.callCount()}
      version={frame + model.version}
      lastSeq={model.lastSeq}
    />
  )
}

function Transcript({
  rows,
  calls,
  version,
  lastSeq,
}: {
  rows: readonly Row[]
  /** How many of the rows are calls. */
  calls: number
  /** The newest seq shown, for anyone checking the transcript is complete. */
  lastSeq: number
  /** Changes whenever `rows` changed in place. */
  version: number
}) {
  const liveApps = useShell().store.apps
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer(scroller, {
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
  })
  // Rows holding a running App stay rendered off-screen: removing an App's frame is done only
  // after telling the App, never by scrolling. Past the limit, the oldest Apps are closed.
  const appRows: number[] = []
  rows.forEach((row, index) => {
    if (hasLiveApp(row, liveApps)) appRows.push(index)
  })
  const kept = appRows.slice(-MAX_LIVE_APPS)
  useEffect(() => {
    for (const index of appRows.slice(0, -MAX_LIVE_APPS)) {
      void liveApps.close((rows[index] as CallRow).callId)
    }
  })
  virtualizer.setOptions({
    ...virtualizer.options,
    rangeExtractor: (range) =>
      kept.length === 0
        ? defaultRangeExtractor(range)
        : [...new Set([...defaultRangeExtractor(range), ...kept])].sort((a, b) => a - b),
    count: rows.length,
    getItemKey: (index) => rows[index]?.key ?? index,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 48,
  })
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer])
  useLayoutEffect(() => virtualizer._willUpdate())
  // The first rows of a session start at the bottom, where new events arrive.
  const opened = useRef(false)
  useLayoutEffect(() => {
    if (!opened.current && rows.length > 0) {
      opened.current = true
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' })
    }
  }, [version, rows, virtualizer])

  const items = virtualizer.getVirtualItems()
  // An App shown full screen or floating is positioned against the window: neither the
  // transcript's containment nor its row's transform may be what it is placed in.
  const away = liveApps.modes.away.value?.callId
  return (
    <div
      ref={scroller}
      class={away === undefined ? 'transcript' : 'transcript transcript-app-away'}
      data-testid="transcript"
      role="log"
      aria-label="Transcript"
      aria-live="polite"
      tabIndex={0}
      onKeyDown={(event) => {
        // Home and End jump straight to the first and newest rows: a browser's own smooth scroll
        // over a long transcript keeps being re-aimed as rows are measured on the way.
        if (event.target !== event.currentTarget || rows.length === 0) return
        if (event.key === 'Home') virtualizer.scrollToIndex(0, { align: 'start' })
        else if (event.key === 'End') virtualizer.scrollToIndex(rows.length - 1, { align: 'end' })
        else return
        event.preventDefault()
      }}
      data-last-seq={lastSeq}
    >
      {rows.length > 0 && (
        <div class="transcript-inner" style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {items.map((item) => {
            const row = rows[item.index]
            if (row === undefined) return null
            // Each row is placed on its own: the rendered rows need not be contiguous, since
            // rows with a running App stay rendered wherever they are.
            return (
              <div
                key={row.key}
                data-index={item.index}
                data-seq={row.seq}
                // The virtualiser's own (stable) callback: a new function each render would
                // detach and re-measure every row on every render.
                ref={virtualizer.measureElement}
                class="transcript-row"
                style={
                  row.kind === 'call' && row.callId === away
                    ? { top: `${item.start}px` }
                    : { transform: `translateY(${item.start}px)` }
                }
              >
                <RowView row={row} />
              </div>
            )
          })}
        </div>
      )}
      {/* Server status lines alone are no start: until the first call, say how to make one. */}
      {calls === 0 && <EmptyTranscript events={rows.length} />}
    </div>
  )
}
