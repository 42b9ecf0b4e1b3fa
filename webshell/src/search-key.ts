// `/` anywhere on the page takes the person to the tool search, as on most sites with one search
// box; not while they type in a field, where `/` is a character, nor with a modifier held.

/** Whether the key went to something that takes text (or a choice) typed into it. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  if (!(target instanceof HTMLInputElement)) return false
  return ![
    'button',
    'checkbox',
    'radio',
    'reset',
    'submit',
    'file',
    'image',
    'range',
    'color',
  ].includes(target.type)
}

/** Calls `focusSearch` on `/`; returns the withdrawal. */
export function watchSearchKey(doc: Document, focusSearch: () => void): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
    if (event.defaultPrevented || typingIn(event.target)) return
    event.preventDefault()
    focusSearch()
  }
  doc.addEventListener('keydown', onKey)
  return () => doc.removeEventListener('keydown', onKey)
}
