// The place of an App's frame on its card. Full screen, maximized or in the floating panel, the same
// element is restyled rather than moved (a moved iframe reloads its App), with a bar to bring it
// back and a note on the card saying where it went. An App with no full screen of its own gets the
// host's Maximize. Escape leaves full screen or maximized from anywhere on the page.

import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import { useShell } from '../store/shell-context.js'

const AWAY_NOTE = {
  fullscreen: 'This App is shown full screen.',
  maximized: 'This App is maximized.',
  pip: 'This App is shown in a floating panel.',
}

const CLOSE = {
  fullscreen: { text: '×', label: 'Close full screen', title: 'Close full screen (Esc)' },
  maximized: { text: 'Restore', label: 'Restore', title: 'Back to its card (Esc)' },
  pip: { text: '×', label: 'Back to the transcript', title: 'Back to the transcript' },
}

export function AppStage({
  callId,
  title,
  children,
}: {
  callId: string
  title: string
  children: ComponentChildren
}) {
  const modes = useShell().store.apps.modes
  const mode = modes.modeOf(callId)
  const maximizable = modes.maximizable.value.has(callId)
  const stage = useRef<HTMLDivElement>(null)
  const close = useRef<HTMLButtonElement>(null)
  const maximize = useRef<HTMLButtonElement>(null)
  const inline = () => modes.set(callId, 'inline')

  useEffect(() => {
    if (mode !== 'fullscreen' && mode !== 'maximized') return
    // Keys pressed inside the App stay in its frame, so focus comes to the page, where Escape
    // works, unless the person is answering a question.
    const active = document.activeElement
    if (active?.closest('[data-testid="question-bar"]') == null) close.current?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      event.preventDefault()
      modes.set(callId, 'inline')
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      // The close button went with the bar: focus goes back to Maximize, which the person
      // pressed, or stays with the App rather than falling away.
      const now = document.activeElement
      if (now !== null && now !== document.body) return
      if (mode === 'maximized' && maximize.current !== null) maximize.current.focus()
      else stage.current?.querySelector('iframe')?.focus()
    }
  }, [mode, callId, modes])

  return (
    <>
      {mode !== 'inline' && (
        <p class="app-note" data-testid="app-away">
          {AWAY_NOTE[mode]}{' '}
          <button type="button" onClick={inline}>
            Show it here
          </button>
        </p>
      )}
      {mode === 'inline' && maximizable && (
        <div class="app-tools">
          <button
            ref={maximize}
            type="button"
            data-testid="app-maximize"
            aria-label={`Maximize ${title}`}
            title="Show this App over the whole tab"
            onClick={() => modes.set(callId, 'maximized')}
          >
            Maximize
          </button>
        </div>
      )}
      <div
        ref={stage}
        class={`app-stage app-stage-${mode}`}
        data-testid="app-stage"
        data-mode={mode}
        role={mode === 'inline' ? undefined : 'region'}
        aria-label={mode === 'inline' ? undefined : `App ${title}`}
      >
        {mode !== 'inline' && (
          <div class="app-mode-bar">
            <span class="app-mode-title">{title}</span>
            <button
              ref={close}
              type="button"
              data-testid="app-mode-close"
              title={CLOSE[mode].title}
              aria-label={CLOSE[mode].label}
              onClick={inline}
            >
              {CLOSE[mode].text}
            </button>
          </div>
        )}
        {children}
      </div>
    </>
  )
}
