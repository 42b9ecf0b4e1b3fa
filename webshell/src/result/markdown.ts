// Markdown from tool results turned into HTML that is safe to insert into the page. micromark
// escapes raw HTML and drops dangerous link protocols; this module then makes sure no image is
// fetched from the network and that links open in a new tab without a referrer.

import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'

// Images are shown only when they travel inside the text itself: a remote image would be refused
// by the page CSP, and fetching it would tell whoever wrote the text the user's address.
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/

const LINK_ATTRS = ' rel="noopener noreferrer" target="_blank"'

// With raw HTML escaped, every `<` in micromark's output starts a tag micromark wrote itself, and
// its attribute values never contain `>` (URLs are percent-encoded, other text entity-encoded), so
// these tags can be matched reliably without an HTML parser.
const TAG = /<a\s[^>]*>|<\/a>|<img\s[^>]*>/g
const HREF = /\shref="([^"]*)"/
const SRC = /\ssrc="([^"]*)"/
const ALT = /\salt="([^"]*)"/
const TITLE = /\stitle="([^"]*)"/

export function renderMarkdown(text: string): string {
  const html = micromark(text, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
  return rewriteTags(html)
}

function rewriteTags(html: string): string {
  // What each open `<a>` became, so its `</a>` closes the same element.
  const open: ('a' | 'span')[] = []
  return html.replace(TAG, (tag) => {
    if (tag === '</a>') return `</${open.pop() ?? 'a'}>`
    if (tag.startsWith('<a')) {
      const element = rewriteLink(tag)
      open.push(element.startsWith('<a') ? 'a' : 'span')
      return element
    }
    return rewriteImage(tag, open.length > 0)
  })
}

function rewriteLink(tag: string): string {
  const href = HREF.exec(tag)?.[1] ?? ''
  // micromark leaves an empty href where it dropped a dangerous URL such as `javascript:`; an
  // empty href would reload this page, so the text stays but stops being a link.
  if (href === '') return '<span class="md-dropped-link">'
  // Footnote references jump within the page and must not open a new tab.
  if (href.startsWith('#')) return tag
  return tag.replace(/>$/, `${LINK_ATTRS}>`)
}

function rewriteImage(tag: string, insideLink: boolean): string {
  const src = SRC.exec(tag)?.[1] ?? ''
  if (INLINE_IMAGE.test(src)) return tag
  // Values are kept in micromark's encoded form, which is also valid as element text.
  const alt = ALT.exec(tag)?.[1] ?? ''
  const title = TITLE.exec(tag)?.[1]
  const label = alt || src || 'image'
  // A link cannot contain another link, and an empty src means micromark dropped the URL.
  if (insideLink || src === '') return `<span class="md-image-text">${label}</span>`
  const titleAttr = title === undefined ? '' : ` title="${title}"`
  return `<a class="md-image-link" href="${src}"${titleAttr}${LINK_ATTRS}>${label}</a>`
}

/** Deeper than this, laying out the HTML would stall the page (5,000 nested lists do). */
export const MAX_HTML_DEPTH = 100

/** `retry`: asking again (with no time limit) could succeed. */
export type MarkdownRendering =
  | { ok: true; html: string }
  | { ok: false; reason: string; retry: boolean }

/** renderMarkdown, refusing HTML nested deeper than MAX_HTML_DEPTH. */
export function renderBounded(text: string): MarkdownRendering {
  const html = renderMarkdown(text)
  const depth = htmlDepth(html)
  if (depth > MAX_HTML_DEPTH) {
    return { ok: false, reason: `its Markdown nests ${depth} levels deep`, retry: false }
  }
  return { ok: true, html }
}

// micromark writes every void element it emits (br, hr, img, input) as `<… />`.
const ANY_TAG = /<(\/?)[a-z][a-z0-9]*(?:\s[^>]*?)?(\/?)>/g

/** How deeply the elements of micromark's (well-formed) HTML nest. */
export function htmlDepth(html: string): number {
  let depth = 0
  let deepest = 0
  for (const match of html.matchAll(ANY_TAG)) {
    if (match[1] === '/') depth--
    else if (match[2] !== '/') deepest = Math.max(deepest, ++depth)
  }
  return deepest
}
