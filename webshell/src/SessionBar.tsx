// The session switcher: pick a session of this daemon, start a new one, or rename the current one.

import { useState } from 'preact/hooks'
import { useShell } from './store/shell-context.js'

function NameForm({
  label,
  initial,
  submitLabel,
  onSubmit,
  onClose,
}: {
  label: string
  initial: string
  submitLabel: string
  onSubmit: (name: string) => Promise<void>
  onClose: () => void
}) {
  const [name, setName] = useState(initial)
  const [error, setError] = useState<string | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (name.trim() === '') {
      setError('Give the session a name.')
      return
    }
    try {
      await onSubmit(name.trim())
      onClose()
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  return (
    <form class="name-form" onSubmit={(event) => void submit(event)}>
      <label>
        {label}{' '}
        <input
          value={name}
          maxLength={100}
          // Opened by a button press: typing the name is the next thing to do.
          autoFocus
          onInput={(event) => setName(event.currentTarget.value)}
          onKeyDown={(event) => event.key === 'Escape' && onClose()}
        />
      </label>
      <button type="submit">{submitLabel}</button>
      <button type="button" onClick={onClose}>
        Cancel
      </button>
      {error !== null && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}

export function SessionBar() {
  const { store, controller } = useShell()
  const sessions = store.sessions.value
  const current = store.session.value
  const [editing, setEditing] = useState<'new' | 'rename' | null>(null)
  const currentInfo = sessions.find((session) => session.id === current)
  return (
    <div class="session-bar">
      <label>
        Session{' '}
        <select
          data-testid="session-select"
          value={current ?? ''}
          onChange={(event) => void controller.switchSession(event.currentTarget.value, true)}
        >
          {current !== undefined && currentInfo === undefined && (
            <option value={current}>{current}</option>
          )}
          {sessions.map((session) => (
            <option key={session.id} value={session.id}>
              {session.name}
              {session.isDefault ? ' (default)' : ''}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => setEditing('new')}>
        New session
      </button>
      <button
        type="button"
        disabled={currentInfo === undefined}
        onClick={() => setEditing('rename')}
      >
        Rename
      </button>
      {editing === 'new' && (
        <NameForm
          label="New session name"
          initial=""
          submitLabel="Create"
          onSubmit={(name) => controller.createSession(name)}
          onClose={() => setEditing(null)}
        />
      )}
      {editing === 'rename' && currentInfo !== undefined && (
        <NameForm
          label="Session name"
          initial={currentInfo.name}
          submitLabel="Save"
          onSubmit={(name) => controller.renameSession(currentInfo.id, name)}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  )
}
