// The inputs for one field of a schema form, chosen by the field's kind: text, number, checkbox,
// select, an array's item list, or a nested object's fieldset. Every control is native, labelled
// by a real <label>, and described by its description and any errors through aria-describedby.

import type { JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatPlaceholder, inputType } from './formats.js'
import type { ArrayField, Field, MultiChoiceField, ObjectField, Primitive } from './schema-model.js'
import { formatPath, pathId, type PathSegment } from './path.js'
import { addItem, removeItem, type FieldState, type ObjectState } from './values.js'

export type Edit = (
  segments: readonly PathSegment[],
  update: (current: FieldState) => FieldState,
) => void

export interface FormContext {
  idPrefix: string
  /** Error messages by the path they are about. */
  errors: ReadonlyMap<string, string[]>
  /** Notes that do not stop a submit (a pattern left to the server), by path. */
  notes: ReadonlyMap<string, string[]>
  edit: Edit
  /** Said when the schema has no fields. */
  emptyText?: string
}

interface FieldProps {
  field: Field
  state: FieldState
  segments: readonly PathSegment[]
  /** The visible label: the property's title or key, or "<key> N" for an array item. */
  label: string
  /** What an array's item labels and buttons are named after: the key, or the item's label. */
  name: string
  /** Array items exist because someone added them, so they carry no required marker. */
  isItem: boolean
  ctx: FormContext
}

/** The fields of the top-level object, without a fieldset of its own. */
export function RootFields(props: {
  root: ObjectField
  state: ObjectState
  ctx: FormContext
}): JSX.Element {
  if (props.root.fields.length === 0) {
    return <p class="sf-empty">{props.ctx.emptyText ?? 'This tool takes no arguments.'}</p>
  }
  return <>{children(props.root, props.state, [], props.ctx)}</>
}

function children(
  field: ObjectField,
  state: ObjectState,
  segments: readonly PathSegment[],
  ctx: FormContext,
): JSX.Element[] {
  return field.fields.flatMap((child) => {
    const childState = state.fields[child.key]
    if (childState === undefined) return []
    return (
      <FieldView
        key={child.key}
        field={child}
        state={childState}
        segments={[...segments, child.key]}
        label={child.title ?? child.key}
        name={child.key}
        isItem={false}
        ctx={ctx}
      />
    )
  })
}

/** Every path the form shows a place for, so other errors can be listed apart. */
export function shownPaths(root: ObjectField, state: ObjectState): Set<string> {
  const paths = new Set<string>()
  const visit = (field: Field, value: FieldState, segments: PathSegment[]): void => {
    paths.add(formatPath(segments))
    if (field.kind === 'object' && value.kind === 'object') {
      for (const child of field.fields) {
        const childState = value.fields[child.key]
        if (childState !== undefined) visit(child, childState, [...segments, child.key])
      }
    }
    if (field.kind === 'array' && value.kind === 'array') {
      value.items.forEach((entry, index) => visit(field.item, entry.value, [...segments, index]))
    }
  }
  visit(root, state, [])
  paths.delete('')
  return paths
}

function FieldView(props: FieldProps): JSX.Element {
  const { field, state } = props
  if (field.kind === 'object' && state.kind === 'object') {
    return <ObjectView {...props} field={field} state={state} />
  }
  if (field.kind === 'array' && state.kind === 'array') {
    return <ArrayView {...props} field={field} state={state} />
  }
  if (field.kind === 'multichoice' && state.kind === 'multi') {
    return <MultiChoiceView {...props} field={field} state={state} />
  }
  return <LeafView {...props} />
}

interface Described {
  path: string
  messages: string[]
  notes: string[]
  errorIds: string[]
  descriptionId: string | undefined
  describedBy: string | undefined
}

function describe(props: FieldProps): Described {
  const { ctx, field } = props
  const path = formatPath(props.segments)
  const messages = ctx.errors.get(path) ?? []
  const errorIds = messages.map((_, index) => pathId(ctx.idPrefix, path, `error${index}`))
  const descriptionId =
    field.description !== undefined && !props.isItem
      ? pathId(ctx.idPrefix, path, 'description')
      : undefined
  const ids = descriptionId === undefined ? errorIds : [descriptionId, ...errorIds]
  const notes = ctx.notes.get(path) ?? []
  return {
    path,
    messages,
    notes,
    errorIds,
    descriptionId,
    describedBy: ids.join(' ') || undefined,
  }
}

/** Shown as required: the person must fill it in (nullable fields and checkboxes need not). */
function needsInput(props: FieldProps): boolean {
  return !props.isItem && props.field.required && !props.field.nullable
}

function RequiredMarker({ shown }: { shown: boolean }): JSX.Element | null {
  if (!shown) return null
  return (
    <span class="sf-required" aria-hidden="true">
      {' *'}
    </span>
  )
}

function Description({ id, text }: { id: string | undefined; text: string | undefined }) {
  if (id === undefined || text === undefined) return null
  return (
    <small id={id} class="sf-description">
      {text}
    </small>
  )
}

function Errors({ described }: { described: Described }): JSX.Element {
  return (
    <>
      {described.messages.map((message, index) => (
        <p key={index} id={described.errorIds[index]} class="field-error" role="alert">
          {described.path === '' ? message : `${described.path}: ${message}`}
        </p>
      ))}
      {described.notes.map((note, index) => (
        <p key={`note${index}`} class="field-note" data-testid="field-note">
          {described.path === '' ? note : `${described.path}: ${note}`}
        </p>
      ))}
    </>
  )
}

function ObjectView(props: FieldProps & { field: ObjectField; state: ObjectState }): JSX.Element {
  const described = describe(props)
  return (
    <fieldset class="sf-group" aria-describedby={described.describedBy}>
      <legend>
        {props.label}
        <RequiredMarker shown={needsInput(props)} />
      </legend>
      <Description id={described.descriptionId} text={props.field.description} />
      <Errors described={described} />
      {children(props.field, props.state, props.segments, props.ctx)}
    </fieldset>
  )
}

function ArrayView(
  props: FieldProps & { field: ArrayField; state: Extract<FieldState, { kind: 'array' }> },
): JSX.Element {
  const { field, state, segments, name, ctx } = props
  const described = describe(props)
  const invalid = described.messages.length > 0
  const listRef = useRef<HTMLOListElement>(null)
  const addRef = useRef<HTMLButtonElement>(null)
  // Keyboard users land in the item they added, and on the add button when the item (and the
  // button they pressed) is gone, instead of back at the top of the page.
  const [moved, setMoved] = useState<'added' | 'removed' | null>(null)
  useEffect(() => {
    if (moved === null) return
    const added = listRef.current?.lastElementChild?.querySelector<HTMLElement>(
      'input, select, textarea, button',
    )
    if (moved === 'added' && added !== undefined && added !== null) added.focus()
    else addRef.current?.focus()
    setMoved(null)
  }, [moved])
  return (
    <fieldset class="sf-group sf-array" aria-describedby={described.descriptionId}>
      <legend>
        {props.label}
        <RequiredMarker shown={needsInput(props) && (field.minItems ?? 0) > 0} />
      </legend>
      <Description id={described.descriptionId} text={field.description} />
      {state.items.length > 0 && (
        <ol class="sf-items" ref={listRef}>
          {state.items.map((entry, index) => (
            <li key={entry.id} class="sf-item">
              <FieldView
                field={field.item}
                state={entry.value}
                segments={[...segments, index]}
                label={`${name} ${index + 1}`}
                name={`${name} ${index + 1}`}
                isItem={true}
                ctx={ctx}
              />
              <button
                type="button"
                class="sf-remove"
                aria-label={`Remove item ${index + 1} of ${name}`}
                onClick={() => {
                  ctx.edit(segments, (current) => removeItem(current, index))
                  setMoved('removed')
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <Errors described={described} />
      {/* An error about the whole list (too few items) sends focus here, where it is fixed. */}
      <button
        type="button"
        class="sf-add"
        aria-describedby={described.errorIds.join(' ') || undefined}
        data-invalid={invalid ? 'true' : undefined}
        ref={addRef}
        onClick={() => {
          ctx.edit(segments, (current) => addItem(field, current))
          setMoved('added')
        }}
      >
        Add {name} item
      </button>
    </fieldset>
  )
}

/** Option text: the value itself, quoted only when text and numbers share one list. */
export function optionText(option: Primitive, options: readonly Primitive[]): string {
  const mixed = options.some((other) => typeof other !== typeof options[0])
  return mixed ? JSON.stringify(option) : String(option)
}

/** What each option is shown as: its title where the schema gives one, else its value. */
function optionLabels(field: { options: Primitive[]; labels: (string | undefined)[] }): string[] {
  return field.options.map(
    (option, index) => field.labels[index] ?? optionText(option, field.options),
  )
}

function MultiChoiceView(
  props: FieldProps & { field: MultiChoiceField; state: Extract<FieldState, { kind: 'multi' }> },
): JSX.Element {
  const { field, state, segments, ctx } = props
  const described = describe(props)
  const invalid = described.messages.length > 0 ? 'true' : undefined
  const labels = optionLabels(field)
  const toggle = (index: number, checked: boolean): void => {
    const others = state.selected.filter((chosen) => chosen !== index)
    const selected = checked ? [...others, index].sort((a, b) => a - b) : others
    ctx.edit(segments, () => ({ kind: 'multi', selected }))
  }
  const required = needsInput(props) && (field.minItems ?? 0) > 0
  return (
    <fieldset
      class="sf-group sf-multi"
      aria-describedby={described.describedBy}
      aria-invalid={invalid}
      data-testid="field-multichoice"
    >
      <legend>
        {props.label}
        <RequiredMarker shown={required} />
      </legend>
      <Description id={described.descriptionId} text={field.description} />
      {labels.map((label, index) => {
        const id = pathId(ctx.idPrefix, described.path, `option${index}`)
        return (
          <div class="sf-field sf-check" key={id}>
            <input
              id={id}
              type="checkbox"
              data-invalid={index === 0 ? invalid : undefined}
              checked={state.selected.includes(index)}
              onChange={(event) => toggle(index, event.currentTarget.checked)}
            />
            <label for={id}>{label}</label>
          </div>
        )
      })}
      <Errors described={described} />
    </fieldset>
  )
}

function LeafView(props: FieldProps): JSX.Element {
  const { field, state, segments, ctx } = props
  const described = describe(props)
  const id = pathId(ctx.idPrefix, described.path, 'field')
  const invalid: 'true' | undefined = described.messages.length > 0 ? 'true' : undefined
  const common = {
    id,
    'aria-describedby': described.describedBy,
    'aria-invalid': invalid,
    'data-invalid': invalid,
  }
  const required = needsInput(props)
  const label = (
    <label for={id}>
      {props.label}
      <RequiredMarker shown={required && field.kind !== 'boolean'} />
    </label>
  )
  const set = (next: FieldState): void => ctx.edit(segments, () => next)

  let control: JSX.Element
  if (field.kind === 'boolean') {
    return (
      <div class="sf-field sf-check">
        <input
          {...common}
          type="checkbox"
          checked={state.kind === 'boolean' && state.checked}
          onChange={(event) => set({ kind: 'boolean', checked: event.currentTarget.checked })}
        />
        {label}
        <Description id={described.descriptionId} text={field.description} />
        <Errors described={described} />
      </div>
    )
  } else if (field.kind === 'choice') {
    const index = state.kind === 'choice' ? state.index : null
    // Options are told apart by position: two titles, or a title and a value, may read alike.
    control = (
      <select
        {...common}
        aria-required={required ? 'true' : undefined}
        value={index === null ? '' : String(index)}
        onChange={(event) => {
          const text = event.currentTarget.value
          set({ kind: 'choice', index: text === '' ? null : Number(text) })
        }}
      >
        {(!field.required || field.nullable || index === null) && <option value="">—</option>}
        {optionLabels(field).map((text, position) => (
          <option key={position} value={String(position)}>
            {text}
          </option>
        ))}
      </select>
    )
  } else if (field.kind === 'number' || field.kind === 'integer') {
    control = (
      <input
        {...common}
        type="number"
        aria-required={required ? 'true' : undefined}
        step={field.kind === 'integer' ? '1' : 'any'}
        min={boundAttribute(field.minimum, field.kind)}
        max={boundAttribute(field.maximum, field.kind)}
        value={state.kind === 'text' ? state.text : ''}
        onInput={(event) => {
          const input = event.currentTarget
          // A number input reads as '' while it holds something like "1e"; remember that it is
          // not actually empty.
          set({ kind: 'text', text: input.value, unreadable: input.validity.badInput || undefined })
        }}
      />
    )
  } else if (field.kind === 'string' && field.multiline) {
    control = (
      <textarea
        {...common}
        rows={4}
        aria-required={required ? 'true' : undefined}
        value={state.kind === 'text' ? state.text : ''}
        onInput={(event) => set({ kind: 'text', text: event.currentTarget.value })}
      />
    )
  } else {
    const format = field.kind === 'string' ? field.format : undefined
    control = (
      <input
        {...common}
        type={inputType(format)}
        placeholder={formatPlaceholder(format)}
        aria-required={required ? 'true' : undefined}
        value={state.kind === 'text' ? state.text : ''}
        onInput={(event) => set({ kind: 'text', text: event.currentTarget.value })}
      />
    )
  }
  return (
    <div class="sf-field">
      {label}
      {control}
      <Description id={described.descriptionId} text={field.description} />
      <Errors described={described} />
    </div>
  )
}

/** A min/max attribute for the spinner arrows; zod's ±MAX_SAFE_INTEGER bounds are left off. */
function boundAttribute(bound: number | undefined, kind: 'number' | 'integer'): string | undefined {
  if (bound === undefined || Math.abs(bound) >= Number.MAX_SAFE_INTEGER) return undefined
  if (kind === 'integer' && !Number.isInteger(bound)) return undefined
  return String(bound)
}
