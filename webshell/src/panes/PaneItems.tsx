// The list a pane offers to pick from (prompts, resources, templates): one button per item, its
// name and a detail, the picked one marked current.

import type { JSX } from 'preact'

export interface PaneItem {
  key: string
  name: string
  /** Shown after the name: a description as text, or a URI as code; nothing when null. */
  detail: { text: string; code?: boolean } | null
  current: boolean
  /** The item's `data-` attributes, e.g. `{ 'data-uri': uri }`, for tests and styling. */
  data: Record<`data-${string}`, string>
  onPick: () => void
}

export function PaneItems(props: { testId: string; items: readonly PaneItem[] }): JSX.Element {
  return (
    <ul>
      {props.items.map((item) => (
        <li key={item.key}>
          <button
            type="button"
            class="pane-item"
            data-testid={props.testId}
            {...item.data}
            aria-current={item.current ? 'true' : undefined}
            onClick={item.onPick}
          >
            <span class="pane-item-name">{item.name}</span>
            {item.detail !== null &&
              (item.detail.code === true ? (
                <code class="pane-item-detail">{item.detail.text}</code>
              ) : (
                <span class="pane-item-detail">{item.detail.text}</span>
              ))}
          </button>
        </li>
      ))}
    </ul>
  )
}
