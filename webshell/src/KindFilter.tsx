// Above the transcript: which kinds of event line it shows, and how many lines the hidden kinds
// keep out of view. Calls, questions and notices are always shown.

import { count } from './format.js'
import { useShell } from './store/shell-context.js'
import { EVENT_KINDS, type ShownRows } from './transcript-filter.js'

export function KindFilter({ shown }: { shown: ShownRows }) {
  const { filter } = useShell().store
  const hiddenLines = shown.hiddenCount()
  return (
    <details class="kind-filter" data-testid="kind-filter">
      <summary>
        Event kinds
        {shown.hidden.size > 0 && (
          <span data-testid="kind-filter-hidden">: {count(hiddenLines, 'line')} hidden</span>
        )}
      </summary>
      <fieldset>
        <legend class="visually-hidden">Event kinds shown in the transcript</legend>
        {EVENT_KINDS.map((kind) => (
          <label key={kind.id}>
            <input
              type="checkbox"
              data-kind={kind.id}
              checked={!shown.hidden.has(kind.id)}
              onChange={(event) => filter.setShown(kind.id, event.currentTarget.checked)}
            />{' '}
            {kind.label} ({shown.counts.get(kind.id) ?? 0})
          </label>
        ))}
      </fieldset>
    </details>
  )
}
