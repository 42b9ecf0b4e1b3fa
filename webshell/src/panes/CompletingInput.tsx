// A text field that offers the server's completions as the person types: a combobox whose list
// of suggestions is walked with the arrow keys, taken with Enter or a click, closed with Escape.

import type { JSX } from 'preact'
import { useMemo, useState } from 'preact/hooks'
import { createCompleter, type AskCompletion } from './completer.js'

let nextId = 0

export function CompletingInput(props: {
  label: string
  value: string
  required?: boolean
  description?: string | null
  onInput(value: string): void
  /** Asks the server for completions of this field; absent, the field is a plain input. */
  complete?: AskCompletion
}): JSX.Element {
  const { complete } = props
  const completer = useMemo(
    () => (complete === undefined ? undefined : createCompleter(complete)),
    [complete],
  )
  const id = useMemo(() => `completing-${++nextId}`, [])
  const [active, setActive] = useState(-1)
  const suggestions = completer?.suggestions.value ?? []
  const open = suggestions.length > 0
  const take = (value: string) => {
    props.onInput(value)
    completer?.clear()
    setActive(-1)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((current) => (current + step + suggestions.length) % suggestions.length)
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault()
      const chosen = suggestions[active]
      if (chosen !== undefined) take(chosen)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      completer?.clear()
      setActive(-1)
    }
  }
  return (
    <div class="completing">
      <label for={id}>
        {props.label}
        {props.required === true && (
          <span class="required" aria-label="required">
            *
          </span>
        )}
      </label>
      {props.description != null && props.description !== '' && (
        <p class="field-description">{props.description}</p>
      )}
      <input
        id={id}
        type="text"
        value={props.value}
        required={props.required}
        autocomplete="off"
        role={completer === undefined ? undefined : 'combobox'}
        aria-expanded={completer === undefined ? undefined : open}
        aria-controls={completer === undefined ? undefined : `${id}-list`}
        aria-autocomplete={completer === undefined ? undefined : 'list'}
        aria-activedescendant={open && active >= 0 ? `${id}-${active}` : undefined}
        onInput={(event) => {
          const value = (event.currentTarget as HTMLInputElement).value
          props.onInput(value)
          setActive(-1)
          completer?.typed(value)
        }}
        onFocus={() => completer?.typed(props.value)}
        onBlur={() => {
          completer?.clear()
          setActive(-1)
        }}
        onKeyDown={onKeyDown}
      />
      {completer !== undefined && (
        <ul
          id={`${id}-list`}
          class="suggestions"
          role="listbox"
          data-testid="suggestions"
          hidden={!open}
          aria-label={`Suggestions for ${props.label}`}
        >
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === active}
              class={index === active ? 'suggestion suggestion-active' : 'suggestion'}
              // Taken before the field's blur would clear the list.
              onMouseDown={(event) => {
                event.preventDefault()
                take(suggestion)
              }}
            >
              {suggestion}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
