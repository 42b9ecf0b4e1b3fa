// An `mcp_app` result on its card: the App in the double opaque-origin sandbox, or the text result
// with the reason it is not shown (among them, a page with no sandbox origin to isolate it in).

import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { CallToolResult } from '../../../daemon/src/protocol/index.js'
import { ResultView } from '../result/ResultView.js'
import { loadAppView, loadedAppView, sandboxOrigin } from './app-loader.js'
import type { AppRequestsOptions } from './app-requests.js'
import type { AppDisplay } from './app-view.js'
import type { LiveApps } from './live-apps.js'
import { AppStage } from './AppStage.js'
import { AnswerButton } from '../questions/AnswerButton.js'
import { useArmed } from '../questions/question-guard.js'
import { useShell } from '../store/shell-context.js'

/** An App asks for the clipboard in its resource; the person decides before it starts. */
/** The page's "always open" answers for the Apps of `session`, kept by `liveApps`. */
function linksOf(liveApps: LiveApps, session: string | undefined): AppRequestsOptions['links'] {
  return {
    allowed: (origin) => liveApps.opensWithoutAsking(session, origin),
    allow: (origin) => liveApps.allowLinks(session, origin),
  }
}

export function wantsClipboard(display: AppDisplay): boolean {
  const declared = display.permissions.clipboardWrite
  return typeof declared === 'object' && declared !== null
}

function ClipboardQuestion({ callId }: { callId: string }) {
  const liveApps = useShell().store.apps
  const armed = useArmed(callId)
  return (
    <div class="app-permission" data-testid="app-permission">
      <p class="app-note">This App asks to write to your clipboard.</p>
      <AnswerButton armed={armed} onAnswer={() => liveApps.answerClipboard(callId, true)}>
        Allow
      </AnswerButton>
      <AnswerButton armed={armed} onAnswer={() => liveApps.answerClipboard(callId, false)}>
        Deny
      </AnswerButton>
    </div>
  )
}

function Fallback({ reason, result }: { reason: string; result: CallToolResult }) {
  return (
    <div data-testid="app-fallback">
      <p class="app-note">App not shown: {reason}.</p>
      <ResultView result={result} />
    </div>
  )
}

export function AppFrame({
  callId,
  display,
  result,
}: {
  callId: string
  display: AppDisplay
  result: CallToolResult
}) {
  const container = useRef<HTMLDivElement>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [stopped, setStopped] = useState<string | null>(null)
  const { store, controller } = useShell()
  const liveApps = store.apps
  // Read so the card renders again when its App is closed or reopened.
  void liveApps.changes.value
  const closed = liveApps.isClosed(callId)
  const clipboard = wantsClipboard(display) ? liveApps.clipboardAnswer(callId) : false

  useLayoutEffect(() => {
    if (closed || failure !== null || stopped !== null || clipboard === undefined) return
    const origin = sandboxOrigin(window.location)
    if (origin === null) {
      setFailure(
        'this page is not on a loopback IP address (127.0.0.1 or [::1]), so there is no separate origin to isolate the App in',
      )
      return
    }
    let gone = false
    const start = ({ startAppView }: typeof import('./app-view.js')) => {
      if (gone || container.current === null) return
      liveApps.add(
        callId,
        startAppView({
          callId,
          modes: liveApps.modes,
          container: container.current,
          sandboxOrigin: origin,
          display,
          theme: liveApps.currentTheme(),
          title: `App ${display.resourceUri} from ${display.serverName}`,
          clipboard,
          onFailure: (reason) => {
            liveApps.drop(callId)
            setFailure(reason)
          },
          onClosed: (reason) => {
            liveApps.drop(callId)
            setStopped(reason)
          },
          requests: {
            channel: controller.apps,
            callId,
            links: linksOf(liveApps, store.transcript.model.peek().session),
            onTeardownRequested: () => void liveApps.close(callId),
          },
        }),
      )
    }
    // Code already loaded starts the App in this task rather than a later one.
    const code = loadedAppView()
    if (code !== undefined) start(code)
    else void loadAppView().then(start)
    return () => {
      gone = true
      liveApps.drop(callId)
    }
  }, [callId, closed, failure, stopped, clipboard])

  if (failure !== null) return <Fallback reason={failure} result={result} />
  if (stopped !== null) {
    return (
      <div data-testid="app-stopped">
        <p class="app-note">App closed: {stopped}.</p>
        <ResultView result={result} />
      </div>
    )
  }
  if (closed) {
    return (
      <div class="app-closed" data-testid="app-closed">
        <p class="app-note">
          App closed. <span>{display.fallbackText}</span>
        </p>
        <button type="button" onClick={() => liveApps.reopen(callId)}>
          Show the App again
        </button>
      </div>
    )
  }
  if (clipboard === undefined) return <ClipboardQuestion callId={callId} />
  return (
    <AppStage callId={callId} title={`${display.resourceUri} from ${display.serverName}`}>
      <div class="app-container" ref={container} data-testid="app-container" />
    </AppStage>
  )
}
