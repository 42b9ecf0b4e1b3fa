// The questions an App's own requests put to the person (open this page? save these files?), shown
// in the App's container, above its frame, so they go wherever the App is shown. One at a time: an
// App that asks again while a question is open is answered no. The action itself (opening the
// page, saving the files) runs in the person's click, where the browser allows it.

import { signal } from '@preact/signals'
import { createElement, render } from 'preact'
import { saveFiles, type DownloadFile } from './app-files.js'
import { AppPrompt } from './AppPrompt.js'
import type { LinkAnswer, Prompt } from './prompt-kinds.js'

export type { LinkAnswer, Prompt }

/** Opens a page in a new tab that gets neither this page's window nor its address. */
export function openPage(url: URL): void {
  window.open(url.href, '_blank', 'noopener,noreferrer')
}

export class AppPrompts {
  readonly current = signal<Prompt | null>(null)
  /** The App's container: its questions may take focus from its own frame. */
  readonly container: HTMLElement
  private readonly host: HTMLElement
  private settle: (() => void) | undefined
  private disposed = false

  constructor(container: HTMLElement) {
    this.container = container
    this.host = document.createElement('div')
    this.host.className = 'app-prompt-host'
    container.prepend(this.host)
    render(createElement(AppPrompt, { prompts: this }), this.host)
  }

  /** A question is open, or none can be shown any more. */
  get busy(): boolean {
    return this.disposed || this.current.value !== null
  }

  /** Asks to open `url`; on yes the page is already open when this resolves. */
  askLink(url: URL): Promise<LinkAnswer> {
    return this.ask<LinkAnswer>('declined', (done) => ({
      kind: 'link',
      url,
      answer: (choice) => {
        if (choice !== 'declined') openPage(url)
        done(choice)
      },
    }))
  }

  /** Asks to save `files`; on yes the browser has them when this resolves. */
  askDownload(files: DownloadFile[]): Promise<boolean> {
    return this.ask(false, (done) => ({
      kind: 'download',
      files,
      answer: (save) => {
        if (save) saveFiles(files)
        done(save)
      },
    }))
  }

  /** Answers an open question no and removes the questions' place; safe to call again. */
  dispose(): void {
    this.settle?.()
    if (this.disposed) return
    this.disposed = true
    render(null, this.host)
    this.host.remove()
  }

  private ask<T>(declined: T, make: (done: (answer: T) => void) => Prompt): Promise<T> {
    return new Promise<T>((resolve) => {
      let open = true
      const done = (answer: T) => {
        if (!open) return
        open = false
        this.settle = undefined
        this.current.value = null
        resolve(answer)
      }
      this.settle = () => done(declined)
      this.current.value = make(done)
    })
  }
}
