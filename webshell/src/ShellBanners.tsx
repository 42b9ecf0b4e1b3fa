// The lines under the top bar that stay until what they say is over: a load that failed, and
// settings a reload could not read (until one reads them), each saying what to do.

import { settingsProblemText } from '../../daemon/src/protocol/settings-says.js'
import { useShell } from './store/shell-context.js'

export function ShellBanners() {
  const { store } = useShell()
  const failure = store.failure.value
  const problem = store.settingsProblem.value
  if (failure === null && problem === null) return null
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
    </div>
  )
}
