// The transcript being shown: its model (replaced, not emptied, when the session changes) and a
// frame counter the view reads. A lone event reaches the screen at once; a burst renders at most
// once per animation frame, and only the views that read the counter render again.

import { signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type { TranscriptEvent } from '../../../daemon/src/protocol/index.js'
import { TranscriptModel } from '../transcript.js'

const FRAME_MS = 16

export interface TranscriptStore {
  model: Signal<TranscriptModel>
  /** Bumped after the model changed, at most once a frame. */
  frame: ReadonlySignal<number>
  apply(events: readonly TranscriptEvent[]): void
  /** Starts an empty transcript, for `session` once known. */
  reset(session: string | undefined): void
}

export function createTranscriptStore(session?: string): TranscriptStore {
  const model = signal(new TranscriptModel(session))
  const frame = signal(0)
  let queued = false
  let last = 0
  const bump = () => {
    if (queued) return
    const now = performance.now()
    if (now - last >= FRAME_MS) {
      last = now
      frame.value += 1
      return
    }
    queued = true
    requestAnimationFrame(() => {
      queued = false
      last = performance.now()
      frame.value += 1
    })
  }
  return {
    model,
    frame,
    apply(events) {
      model.value.apply(events)
      bump()
    },
    reset(next) {
      model.value = new TranscriptModel(next)
      bump()
    },
  }
}
