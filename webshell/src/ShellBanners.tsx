// The lines under the top bar that stay until what they say is over: a load that failed, settings a
// reload could not read (until one reads them), and Ferry not answering (until it answers again),
// each saying what to do.

import { settingsProblemText } from '../../daemon/src/protocol/settings-says.js'
import { useShell } from './store/shell-context.js'
import { NOT_ANSWERING } from './store/shell-store.js'

export function ShellBanners() {
  const { store } = useShell()
  const failure = store.failure.value
  const problem = store.settingsProblem.value
  const connection = store.connection.value
  const away = connection.state === 'reconnecting' && connection.why === NOT_ANSWERING
  if (failure === null && problem === null && !away) return null
  return (
    <div class="banners">
      {failure !== null && (
        <p class="banner error-text" role="alert" data-testid="error">
          {failure}
        </p>
      )}
      {problem !== null && (
        <p class="banner error-text" role="alert" data-testid="settings-problem">
          {settingsProblemText(problem)}
        </p>
      )}
      {away && (
        <p class="banner banner-away" role="status" data-testid="daemon-away">
          {NOT_ANSWERING}. If it stopped, start it again with <code>ferry start</code> in a
          terminal; this tab keeps trying to reconnect and carries on once it answers.
        </p>
      )}
    </div>
  )
}
