// One virtualiser of a scrolling list of rows (the transcript, the tool list): made once per
// component, measuring rows as they render, and re-rendering the component when it changes.

import {
  Virtualizer,
  elementScroll,
  measureElement,
  observeElementOffset,
  observeElementRect,
} from '@tanstack/virtual-core'
import type { RefObject } from 'preact'
import { useReducer, useState } from 'preact/hooks'

export function useVirtualizer(
  scroller: RefObject<HTMLDivElement>,
  options: { estimateSize: () => number; overscan: number },
): Virtualizer<HTMLDivElement, HTMLElement> {
  const [, rerender] = useReducer((count: number) => count + 1, 0)
  const [virtualizer] = useState(
    () =>
      new Virtualizer<HTMLDivElement, HTMLElement>({
        count: 0,
        getScrollElement: () => scroller.current,
        estimateSize: options.estimateSize,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        measureElement,
        overscan: options.overscan,
        onChange: () => rerender(0),
      }),
  )
  return virtualizer
}
