// A server's form on the attach screen: one row per field (the focused one marked, the list
// scrolled to it), what the focused field takes or what to fix in it, and the keys. The keyboard
// is the form's while the prompt line is empty, as for a confirmation.

import { Box, useInput } from 'ink'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { InputRequestedEvent } from '../../protocol/index.js'
import { displayValue, fieldHint, isMasked, readForm, type FormField } from '../input-form.js'
import { useAttach } from './attach-context.js'
import { createFormEditor, pressFormKeys, refuseForm, type FormEditor } from './form-editor.js'
import { viewport } from './line-editor.js'
import type { AnswerState } from './open-inputs.js'
import { QuestionBox } from './QuestionBox.js'
import { Text } from './Text.js'

function FieldValue(props: { field: FormField; editor: FormEditor; focused: boolean }) {
  const { field, editor, focused } = props
  const typed = editor.texts[field.key]
  // A secret is drawn as one dot per character typed, the cursor where it is.
  const line =
    typed !== undefined && isMasked(field)
      ? { ...typed, text: '•'.repeat(typed.text.length) }
      : typed
  if (line !== undefined) {
    if (!focused) return <Text>{line.text === '' ? '—' : line.text}</Text>
    const view = viewport(line, 60)
    return (
      <Text>
        {view.before}
        <Text inverse>{view.at}</Text>
        {view.after}
      </Text>
    )
  }
  const value = editor.values[field.key]
  if (field.kind === 'choices') {
    const picked = Array.isArray(value) ? value : []
    const cursor = editor.cursors[field.key] ?? 0
    return (
      <Text>
        {field.options.map((option, i) => (
          <Text key={option.value} inverse={focused && i === cursor}>
            {picked.includes(option.value) ? '[x] ' : '[ ] '}
            {option.label}
            {i < field.options.length - 1 ? '  ' : ''}
          </Text>
        ))}
      </Text>
    )
  }
  const shown = value === undefined ? '—' : displayValue(field, value)
  return <Text>{focused ? `‹ ${shown} ›` : shown}</Text>
}

const KEYS: Record<FormField['kind'], string> = {
  text: 'type to edit',
  number: 'type a number',
  integer: 'type a whole number',
  boolean: 'space, y or n',
  choice: '←→ or a number picks',
  choices: '←→ moves, space or a number picks',
}

export function FormPrompt(props: {
  input: InputRequestedEvent
  answer: AnswerState | undefined
  body: number
  rows: number
  head: string
  active: boolean
}) {
  const { controller } = useAttach()
  const { fields } = useMemo(() => readForm(props.input.requestedSchema), [props.input])
  const [editor, setEditorState] = useState(() => createFormEditor(fields))
  // Keys can arrive faster than React re-renders: each builds on the latest state.
  const current = useRef(editor)
  const setEditor = (next: FormEditor) => {
    current.current = next
    setEditorState(next)
  }
  const sending = props.answer?.state === 'sending'
  const refusal = props.answer?.state === 'refused' ? props.answer.message : null
  useEffect(() => {
    if (refusal !== null) setEditor(refuseForm(current.current, refusal))
  }, [refusal])
  useInput(
    (input, key) => {
      if (sending || (key.ctrl && input === 'c')) return
      const next = pressFormKeys(current.current, input, key)
      setEditor(next.editor)
      if (next.answer !== undefined) controller.answerInput(props.input.inputId, next.answer)
    },
    { isActive: props.active },
  )

  const start = Math.max(
    0,
    Math.min(editor.focus - Math.floor(props.body / 2), fields.length - props.body),
  )
  const shown = fields.slice(start, start + props.body)
  // The marker, the longest title (up to 30 columns) with its required mark, and a gap.
  const titleWidth =
    3 + Math.min(30, Math.max(6, ...fields.map((f) => f.title.length + (f.required ? 2 : 0))))
  const focused = fields[editor.focus]
  const problem = focused === undefined ? undefined : (editor.errors[focused.key] ?? undefined)
  const detail = sending
    ? 'sent; waiting for the daemon…'
    : (editor.error ??
      problem ??
      (focused === undefined
        ? 'the server asks for nothing: Enter sends an empty answer'
        : [focused.description, fieldHint(focused)].filter((part) => part !== null).join(' · ')))
  const bad = !sending && (editor.error !== null || problem !== undefined)
  return (
    <QuestionBox rows={props.rows} head={props.head}>
      {shown.map((field) => {
        const at = fields.indexOf(field) === editor.focus
        const marked = editor.errors[field.key] !== undefined
        return (
          <Box key={field.key} height={1}>
            <Box flexShrink={0} width={titleWidth - 1} marginRight={1}>
              <Text
                wrap="truncate-end"
                color={marked ? 'red' : at ? 'magenta' : undefined}
                bold={at}
              >
                {at ? '› ' : '  '}
                {field.title}
                {field.required ? ' *' : ''}
              </Text>
            </Box>
            <Box flexGrow={1} flexShrink={1}>
              <Text wrap="truncate-end">
                <FieldValue field={field} editor={editor} focused={at} />
              </Text>
            </Box>
          </Box>
        )
      })}
      <Text wrap="truncate-end" color={bad ? 'red' : undefined} dimColor={!bad}>
        {detail}
      </Text>
      <Text wrap="truncate-end" dimColor>
        Enter sends · Tab/↑↓ fields · {focused === undefined ? '' : `${KEYS[focused.kind]} · `}Esc
        cancels · Ctrl-D declines{fields.length > props.body ? ` · ${fields.length} fields` : ''}
      </Text>
    </QuestionBox>
  )
}
