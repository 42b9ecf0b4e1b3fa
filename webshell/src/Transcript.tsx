// The live transcript: a virtualised list of rows (only those near the viewport are in the DOM),
// measured as they render, that follows new events while the reader is at the bottom; scrolled up,
// it keeps their place and says how many rows came below. Kinds of event line may be hidden.

import { defaultRangeExtractor } from '@tanstack/virtual-core'
import { memo } from 'preact/compat'
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import { useVirtualizer } from './use-virtualizer.js'
import { MAX_LIVE_APPS, type LiveApps } from './apps/live-apps.js'
import { CallCard } from './CallCard.js'
import { EventLine } from './EventLine.js'
import { InputLine } from './inputs/InputLine.js'
import { EmptyTranscript } from './EmptyTranscript.js'
import { clock, count } from './format.js'
import { KindFilter } from './KindFilter.js'
import { useShell } from './store/shell-context.js'
import type { CallRow, NoticeRow, Row, StatusRow } from './transcript.js'
import { ShownRows } from './transcript-filter.js'

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

/** Within this many pixels of the end, the reader is at the newest rows. */
const END_PX = 48

function Transcript({
  rows,
  calls,
  lastSeq,
}: {
  rows: readonly Row[]
  /** How many of the rows are calls. */
  calls: number
  /** The newest seq shown, for anyone checking the transcript is complete. */
  lastSeq: number
  /** Changes whenever `rows` changed in place, so the view renders again. */
  version: number
}) {
  const { apps: liveApps, filter } = useShell().store
  const hidden = filter.hidden.value
  const shown = useMemo(() => new ShownRows(rows, hidden), [rows, hidden]).update()
  const indexes = shown.indexes
  const rowAt = (index: number): Row | undefined => rows[indexes[index] ?? -1]
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer(scroller, {
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
  })
  // Null while the reader is at the newest rows, which new events then follow; else the seq of the
  // newest row when they left, so the rows that came since can be counted.
  const [awaySince, setAwaySince] = useState<number | null>(null)
  const following = awaySince === null
  const lastTop = useRef(0)
  // Rows holding a running App stay rendered off-screen: removing an App's frame is done only
  // after telling the App, never by scrolling. Past the limit, the oldest Apps are closed.
  const appRows: number[] = []
  indexes.forEach((rowIndex, index) => {
    if (hasLiveApp(rows[rowIndex] as Row, liveApps)) appRows.push(index)
  })
  const kept = appRows.slice(-MAX_LIVE_APPS)
  useEffect(() => {
    for (const index of appRows.slice(0, -MAX_LIVE_APPS)) {
      void liveApps.close((rowAt(index) as CallRow).callId)
    }
  })
  virtualizer.setOptions({
    ...virtualizer.options,
    rangeExtractor: (range) =>
      kept.length === 0
        ? defaultRangeExtractor(range)
        : [...new Set([...defaultRangeExtractor(range), ...kept])].sort((a, b) => a - b),
    count: indexes.length,
    getItemKey: (index) => rowAt(index)?.key ?? index,
    // The reader's place is kept when rows are added or change; while following, the newest rows
    // stay in view whatever moved (a row that grew, the question bar taking room).
    anchorTo: 'end',
    followOnAppend: following,
    scrollEndThreshold: following ? Number.MAX_SAFE_INTEGER : 0,
  })
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer])
  useLayoutEffect(() => virtualizer._willUpdate())
  useLayoutEffect(() => {
    const element = scroller.current
    if (!following || element === null || indexes.length === 0) return
    if (element.scrollHeight - element.scrollTop - element.clientHeight > 1) {
      virtualizer.scrollToEnd()
    }
  })
  const onScroll = () => {
    const element = scroller.current
    if (element === null) return
    const top = element.scrollTop
    const atEnd = element.scrollHeight - top - element.clientHeight <= END_PX
    // Only the reader moving up leaves the newest rows: rows growing or arriving never do.
    if (atEnd) setAwaySince(null)
    else if (top < lastTop.current - 1 && following) {
      setAwaySince(rowAt(indexes.length - 1)?.seq ?? 0)
    }
    lastTop.current = top
  }
  const toEnd = () => {
    setAwaySince(null)
    virtualizer.scrollToEnd()
  }
  let unseen = 0
  if (awaySince !== null) {
    for (
      let index = indexes.length - 1;
      index >= 0 && (rowAt(index)?.seq ?? 0) > awaySince;
      index--
    ) {
      unseen += 1
    }
  }

  const items = virtualizer.getVirtualItems()
  // An App shown full screen or floating is positioned against the window: neither the
  // transcript's containment nor its row's transform may be what it is placed in.
  const away = liveApps.modes.away.value?.callId
  return (
    <div class="transcript-frame">
      <KindFilter shown={shown} />
      <div
        ref={scroller}
        class={away === undefined ? 'transcript' : 'transcript transcript-app-away'}
        data-testid="transcript"
        data-following={following ? 'true' : 'false'}
        role="log"
        aria-label="Transcript"
        aria-live="polite"
        tabIndex={0}
        onScroll={onScroll}
        onKeyDown={(event) => {
          // Home and End jump straight to the first and newest rows: a browser's own smooth scroll
          // over a long transcript keeps being re-aimed as rows are measured on the way.
          if (event.target !== event.currentTarget || indexes.length === 0) return
          if (event.key === 'Home') virtualizer.scrollToIndex(0, { align: 'start' })
          else if (event.key === 'End') toEnd()
          else return
          event.preventDefault()
        }}
        data-last-seq={lastSeq}
      >
        {indexes.length > 0 && (
          <div class="transcript-inner" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            {items.map((item) => {
              const row = rowAt(item.index)
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
      {unseen > 0 && (
        <button
          type="button"
          class="transcript-jump"
          data-testid="transcript-jump"
          title={`${count(unseen, 'new row')} below: show the newest`}
          onClick={toEnd}
        >
          {unseen} new <span aria-hidden="true">↓</span>
        </button>
      )}
    </div>
  )
}
