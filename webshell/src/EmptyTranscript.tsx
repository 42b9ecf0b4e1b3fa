// What an empty transcript says to someone new: how to make the first call, what happens next,
// and the other ways in (a terminal's `ferry call` and `ferry attach`).

import { useShell } from './store/shell-context.js'

/** `events`: the rows already shown (server status lines and notices, no call yet). */
export function EmptyTranscript({ events }: { events: number }) {
  const { store } = useShell()
  const servers = store.servers.value ?? []
  const tools = store.tools.value
  const session = store.session.value
  const sessionArg = session === undefined ? '' : ` ${session}`
  const sessionOption = session === undefined ? '' : ` --session ${session}`
  return (
    <div class="empty" data-testid="empty-transcript">
      <p>
        <strong>
          {events === 0 ? 'No events in this session yet.' : 'No calls in this session yet.'}
        </strong>{' '}
        Every call in it shows up here, from this tab, a terminal or an agent.
      </p>
      {servers.length === 0 ? (
        <p data-testid="empty-no-servers">
          Ferry has no MCP servers yet. Add one under <code>mcpServers</code> in a settings file (
          <code>ferry status</code> names the files it reads), then <code>ferry reload</code>.
        </p>
      ) : (
        <ol class="empty-steps">
          <li>
            Pick a tool in the <strong>Tools</strong> pane
            {tools.length === 0 ? ' once a server is ready' : ` (${tools.length} to choose from)`},
            and open it: its form is made from the arguments it takes.
          </li>
          <li>
            Fill it in and press <strong>Call</strong>. The call appears here as a card.
          </li>
          <li>
            If its server is not trusted, Ferry asks first: the question takes focus in the bar
            below, and once its buttons wake, Enter allows it once. Then the card shows progress and
            the result.
          </li>
        </ol>
      )}
      <p>
        From a terminal, <code>ferry call &lt;tool&gt; '&lt;json&gt;'{sessionOption}</code> runs a
        call here, and <code>ferry attach{sessionArg}</code> follows this session and answers its
        questions.
      </p>
    </div>
  )
}
