// What an MCP App did, on the card of the call that rendered it: the latest model context it set
// (which no model reads: Ferry drives none) and the pages it opened, files it saved and its logs.

import type { AppActivity as Activity } from './app-rows.js'
import { clock } from './format.js'

export function AppActivity({ activity }: { activity: Activity | null }) {
  if (activity === null) return null
  const context = activity.modelContext
  return (
    <div class="app-activity">
      {context !== null && (
        <p class="app-model-context" data-testid="app-model-context" data-seq={context.seq}>
          <span class="who">Model context (latest; Ferry passes it to no model):</span>{' '}
          {context.text}
        </p>
      )}
      {activity.lines.length > 0 && (
        <ul class="call-logs" aria-label="What the App did">
          {activity.lines.map((line) => (
            <li
              key={line.seq}
              class={`tone-${line.tone}`}
              data-testid="app-activity"
              data-event={line.event}
            >
              <time dateTime={line.time}>{clock(line.time)}</time> App {line.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
