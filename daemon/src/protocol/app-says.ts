// How every view shows the words of an MCP App: after the App's name, on one line, between quote
// marks only Ferry writes, so nothing an App sends can read as a line of Ferry's own. Browser-safe
// and free of imports, for the terminals and the WebShell alike.

/** An App's text is cut to this many characters where it is shown on one line. */
export const APP_TEXT_CHARS = 500

/** Breaks a line in a terminal or a log: CR, LF, VT, FF, NEL and the Unicode separators. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g
/** Marks that could pass for the closing quote Ferry puts after an App's text. */
const QUOTE_LOOKALIKES = /[“”„‟″‶〝〞〟＂]/g

/**
 * Who speaks: `App of mcp_docs_show on "docs"`, from the names the daemon records with an App's
 * message; `App of call 3f2a…` for one recorded before it did.
 */
export function appName(event: { callId: string; tool?: string; server?: string }): string {
  return event.tool === undefined || event.server === undefined
    ? `App of call ${event.callId}`
    : `App of ${event.tool} on "${event.server}"`
}

/**
 * An App's text made fit for one line: each line break shows as `⏎`, quote marks that could close
 * Ferry's quote become `"`, and past `max` characters it is cut with `…`.
 */
export function appText(text: string, max = APP_TEXT_CHARS): string {
  const flat = text.replace(LINE_BREAKS, '⏎').replace(QUOTE_LOOKALIKES, '"')
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

/** `appText` between Ferry's own quote marks: `“…”`. */
export function appQuote(text: string, max = APP_TEXT_CHARS): string {
  return `“${appText(text, max)}”`
}
