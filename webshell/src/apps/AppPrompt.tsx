// The open question of an App, above its frame: the full address of a page it wants opened, or the
// names, types and sizes of the files it wants saved. Like every question (question-guard.ts) it
// takes focus only when the person is not typing elsewhere, and its answers wake after the guard
// time, so a click or key the person meant for the App cannot land on them.

import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import './app-prompt.css'
import { AnswerButton } from '../questions/AnswerButton.js'
import {
  announceQuestion,
  mayTakeFocus,
  offerSummon,
  useArmed,
} from '../questions/question-guard.js'
import { size as sizeText } from '../transcript-lines.js'
import type { ReadonlySignal } from '@preact/signals'
import type { Prompt } from './prompt-kinds.js'

/** Where the prompt comes from: the question open now, and the App's container. */
interface PromptSource {
  current: ReadonlySignal<Prompt | null>
  container: HTMLElement
}

/** One answer to the question; asleep until `armed`. */
function Choice({
  armed,
  testid,
  deny = false,
  onChoose,
  children,
}: {
  armed: boolean
  testid: string
  deny?: boolean
  onChoose: () => void
  children: ComponentChildren
}) {
  return (
    <AnswerButton
      armed={armed}
      class={deny ? 'deny' : undefined}
      data-testid={testid}
      onAnswer={onChoose}
    >
      {children}
    </AnswerButton>
  )
}

const NOTICES: Record<Prompt['kind'], string> = {
  link: 'An App asks to open a page: press Alt+Q to answer it.',
  download: 'An App asks to save files: press Alt+Q to answer it.',
}

function LinkQuestion({
  prompt,
  armed,
}: {
  prompt: Extract<Prompt, { kind: 'link' }>
  armed: boolean
}) {
  const origin = prompt.url.origin
  return (
    <>
      <p>
        The App asks to open a page on <strong data-testid="app-link-origin">{origin}</strong> in a
        new tab:
      </p>
      <p class="app-prompt-url">
        <code data-testid="app-link-url">{prompt.url.href}</code>
      </p>
      <div class="choices">
        <Choice armed={armed} testid="app-link-open" onChoose={() => prompt.answer('once')}>
          Open
        </Choice>
        <Choice armed={armed} testid="app-link-always" onChoose={() => prompt.answer('always')}>
          Always for {origin} in this session
        </Choice>
        <Choice
          armed={armed}
          testid="app-link-decline"
          deny
          onChoose={() => prompt.answer('declined')}
        >
          Don’t open
        </Choice>
      </div>
    </>
  )
}

function DownloadQuestion({
  prompt,
  armed,
}: {
  prompt: Extract<Prompt, { kind: 'download' }>
  armed: boolean
}) {
  const total = prompt.files.reduce((sum, file) => sum + file.bytes, 0)
  const count = prompt.files.length
  return (
    <>
      <p>
        The App asks to save {count === 1 ? 'a file' : `${count} files`} ({sizeText(total)}) to your
        downloads:
      </p>
      <ul class="app-prompt-files">
        {prompt.files.map((file, index) => (
          <li key={index} data-testid="app-download-file">
            <code>{file.name}</code> <span class="who">{file.mimeType}</span>,{' '}
            {sizeText(file.bytes)}
          </li>
        ))}
      </ul>
      <div class="choices">
        <Choice armed={armed} testid="app-download-save" onChoose={() => prompt.answer(true)}>
          Save
        </Choice>
        <Choice
          armed={armed}
          testid="app-download-decline"
          deny
          onChoose={() => prompt.answer(false)}
        >
          Don’t save
        </Choice>
      </div>
    </>
  )
}

export function AppPrompt({ prompts }: { prompts: PromptSource }) {
  const prompt = prompts.current.value
  const armed = useArmed(prompt)
  const box = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const element = box.current
    if (prompt === null || element === null) return
    // The question itself takes focus, not a button, and it may take it from the App's own frame.
    const withdrawSummon = offerSummon(() => element.focus())
    if (mayTakeFocus({ own: prompts.container })) {
      element.focus()
      return withdrawSummon
    }
    const withdrawNotice = announceQuestion(NOTICES[prompt.kind])
    element.addEventListener('focusin', withdrawNotice)
    return () => {
      withdrawSummon()
      withdrawNotice()
      element.removeEventListener('focusin', withdrawNotice)
    }
  }, [prompt])
  if (prompt === null) return null
  return (
    <div
      ref={box}
      class="app-prompt"
      role="group"
      tabIndex={-1}
      aria-label="The App asks"
      data-testid="app-prompt"
      data-kind={prompt.kind}
      data-armed={armed ? 'true' : 'false'}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !armed) return
        event.preventDefault()
        if (prompt.kind === 'link') prompt.answer('declined')
        else prompt.answer(false)
      }}
    >
      {prompt.kind === 'link' ? (
        <LinkQuestion prompt={prompt} armed={armed} />
      ) : (
        <DownloadQuestion prompt={prompt} armed={armed} />
      )}
    </div>
  )
}
