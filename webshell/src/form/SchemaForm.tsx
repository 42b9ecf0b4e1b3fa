// The form for calling a tool, generated from its input schema. It checks the arguments before
// calling, shows each problem next to its field, and can switch to editing the arguments as raw
// JSON. A schema the form cannot express faithfully opens straight in the JSON editor, with the
// reason, rather than sending arguments the server did not ask for. Patterns are checked in a
// worker first; one that cannot be checked in time gets a note and is left to the server.

import type { JSX } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { AnswerButton } from '../questions/AnswerButton.js'
import { RootFields, shownPaths, type Edit, type FormContext } from './fields.js'
import { formatPath, isWithin, pathId } from './path.js'
import { analyseSchema, type ObjectField } from './schema-model.js'
import { checkPatterns, outcomeOf, PATTERN_NOT_CHECKED, warmPatterns } from './pattern-check.js'
import {
  parseArgumentsJson,
  patternChecks,
  validateArguments,
  type FieldError,
} from './validate.js'
import { fromArguments, initialState, toArguments, updateAt, type ObjectState } from './values.js'
import './form.css'

export interface SchemaFormProps {
  schema: Record<string, unknown>
  /** Unique per form on the page; prefixes element ids. */
  idPrefix: string
  submitLabel?: string
  /** False while the form answers a question not yet armed: submitting does nothing. */
  submitArmed?: boolean
  onSubmit: (args: Record<string, unknown>) => void
  /** Problems found after submitting (a refusal naming a field), shown as the form's own are. */
  refusals?: readonly FieldError[]
  /** More buttons beside the submit button. */
  actions?: JSX.Element
  testId?: string
  /** Said when the schema has no fields. */
  emptyText?: string
}

export function SchemaForm(props: SchemaFormProps): JSX.Element {
  // A different schema starts the form over rather than carry state shaped for the old one. It is
  // compared by content: a refreshed tool list brings new but equal objects, and those must not
  // wipe what the person has typed.
  const key = useMemo(() => JSON.stringify(props.schema), [props.schema])
  return <SchemaFormBody key={key} {...props} />
}

const EMPTY_STATE: ObjectState = { kind: 'object', fields: {} }

function SchemaFormBody({
  schema,
  idPrefix,
  submitLabel = 'Call',
  submitArmed = true,
  onSubmit,
  refusals,
  actions,
  testId = 'tool-form',
  emptyText,
}: SchemaFormProps): JSX.Element {
  const analysis = useMemo(() => analyseSchema(schema), [schema])
  const root: ObjectField | null = analysis.supported ? analysis.root : null
  const [state, setState] = useState<ObjectState>(() =>
    root === null ? EMPTY_STATE : initialState(root),
  )
  const [mode, setMode] = useState<'form' | 'json'>(root === null ? 'json' : 'form')
  const [jsonText, setJsonText] = useState(root === null ? '{}' : '')
  const [errors, setErrors] = useState<FieldError[]>([])
  const [notes, setNotes] = useState<FieldError[]>([])
  const [checking, setChecking] = useState(false)
  const attempts = useRef(0)
  const [focusRequest, setFocusRequest] = useState(0)
  const formRef = useRef<HTMLFormElement>(null)

  useEffect(warmPatterns, [])

  // After a refused submit, take the person to the first problem, in page order.
  useEffect(() => {
    if (focusRequest === 0) return
    formRef.current?.querySelector<HTMLElement>('[data-invalid="true"]')?.focus()
  }, [focusRequest])

  const fail = (found: FieldError[]): void => {
    setErrors(found)
    setFocusRequest((count) => count + 1)
  }

  useEffect(() => {
    if (refusals !== undefined && refusals.length > 0) fail([...refusals])
  }, [refusals])

  const edit: Edit = (segments, update) => {
    setState((current) => {
      const next = updateAt(current, segments, update)
      return next.kind === 'object' ? next : current
    })
    // An edited field's old errors no longer describe it; the next submit checks again.
    const path = formatPath(segments)
    setErrors((current) => current.filter((error) => !isWithin(error.path, path)))
    setNotes((current) => current.filter((note) => !isWithin(note.path, path)))
  }

  /** Validates `args` (patterns in the worker first) and sends them if nothing is wrong. */
  const finish = async (
    args: Record<string, unknown>,
    problems: readonly FieldError[],
  ): Promise<void> => {
    const attempt = ++attempts.current
    const checks = root === null ? [] : patternChecks(root, args)
    if (checks.length > 0) {
      setChecking(true)
      await checkPatterns(checks)
      // A later submit took over while this one waited.
      if (attempt !== attempts.current) return
      setChecking(false)
    }
    // An input that could not be read is reported once, by what the person can do about it,
    // not again as the missing or null value it turned into.
    const unreadable = new Set(problems.map((problem) => problem.path))
    const validated = root === null ? [] : validateArguments(root, args, outcomeOf)
    const found = [...problems, ...validated.filter((error) => !unreadable.has(error.path))]
    setNotes(
      checks
        .filter((check) => outcomeOf(check.pattern, check.value) === 'unchecked')
        .map((check) => ({ path: check.path, message: PATTERN_NOT_CHECKED })),
    )
    if (found.length > 0) return fail(found)
    setErrors([])
    onSubmit(args)
  }

  const submit = (event: Event): void => {
    event.preventDefault()
    if (mode === 'json' || root === null) {
      const reading = parseArgumentsJson(jsonText)
      if (!reading.ok) return fail([reading.error])
      void finish(reading.args, [])
      return
    }
    const { args, problems } = toArguments(root, state)
    void finish(args, problems)
  }

  const toggle = (): void => {
    if (root === null) return
    if (mode === 'form') {
      setJsonText(JSON.stringify(toArguments(root, state).args, null, 2))
      setErrors([])
      setNotes([])
      setMode('json')
      return
    }
    const reading = parseArgumentsJson(jsonText)
    if (!reading.ok) return setErrors([reading.error])
    const back = fromArguments(root, reading.args)
    if (!back.ok) return setErrors(back.errors)
    setState(back.state)
    setErrors([])
    setNotes([])
    setMode('form')
  }

  const jsonId = `${idPrefix.replace(/\s/gu, '_')}-json`
  return (
    <form data-testid={testId} class="sf-form" noValidate ref={formRef} onSubmit={submit}>
      {analysis.supported ? (
        <div class="sf-toolbar">
          <button type="button" class="sf-toggle" onClick={toggle}>
            {mode === 'form' ? 'Edit as JSON' : 'Edit as form'}
          </button>
        </div>
      ) : (
        <div class="sf-fallback">
          <p>These arguments can only be edited as JSON; the form cannot express this schema:</p>
          <p data-testid="form-fallback-reason" class="sf-fallback-reason">
            {analysis.reason}
          </p>
        </div>
      )}
      {mode === 'form' && root !== null ? (
        <FormFields
          root={root}
          state={state}
          errors={errors}
          notes={notes}
          ctx={{ idPrefix, errors: byPath(errors), notes: byPath(notes), edit, emptyText }}
        />
      ) : (
        <JsonEditor
          id={jsonId}
          text={jsonText}
          errors={errors}
          notes={notes}
          onInput={setJsonText}
        />
      )}
      <div class="sf-actions">
        <AnswerButton type="submit" armed={submitArmed} disabled={checking}>
          {submitLabel}
        </AnswerButton>
        {actions}
        {checking && (
          <span class="sf-checking" role="status">
            Checking patterns…
          </span>
        )}
      </div>
    </form>
  )
}

function byPath(errors: readonly FieldError[]): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const error of errors) map.set(error.path, [...(map.get(error.path) ?? []), error.message])
  return map
}

function errorText(error: FieldError): string {
  return error.path === '' ? error.message : `${error.path}: ${error.message}`
}

function FormFields(props: {
  root: ObjectField
  state: ObjectState
  errors: readonly FieldError[]
  notes: readonly FieldError[]
  ctx: FormContext
}): JSX.Element {
  // Errors with no field of their own (about the arguments as a whole) are listed after the fields.
  const shown = shownPaths(props.root, props.state)
  const unplaced = props.errors.filter((error) => !shown.has(error.path))
  const unplacedNotes = props.notes.filter((note) => !shown.has(note.path))
  return (
    <div class="sf-fields">
      <RootFields root={props.root} state={props.state} ctx={props.ctx} />
      {unplaced.length > 0 && (
        <div class="sf-unplaced" tabIndex={-1} data-invalid="true">
          {unplaced.map((error, index) => (
            <p key={index} class="field-error" role="alert">
              {errorText(error)}
            </p>
          ))}
        </div>
      )}
      <NoteList notes={unplacedNotes} />
    </div>
  )
}

function NoteList({ notes }: { notes: readonly FieldError[] }): JSX.Element {
  return (
    <>
      {notes.map((note, index) => (
        <p key={index} class="field-note" data-testid="field-note">
          {errorText(note)}
        </p>
      ))}
    </>
  )
}

function JsonEditor(props: {
  id: string
  text: string
  errors: readonly FieldError[]
  notes: readonly FieldError[]
  onInput: (text: string) => void
}): JSX.Element {
  const errorIds = props.errors.map((_, index) => pathId(props.id, '', `error${index}`))
  const invalid = props.errors.length > 0 ? 'true' : undefined
  return (
    <div class="sf-json">
      <textarea
        id={props.id}
        class="sf-json-input"
        aria-label="Arguments as JSON"
        aria-describedby={errorIds.join(' ') || undefined}
        aria-invalid={invalid}
        data-invalid={invalid}
        rows={10}
        spellcheck={false}
        value={props.text}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.errors.map((error, index) => (
        <p key={index} id={errorIds[index]} class="field-error" role="alert">
          {errorText(error)}
        </p>
      ))}
      <NoteList notes={props.notes} />
    </div>
  )
}
