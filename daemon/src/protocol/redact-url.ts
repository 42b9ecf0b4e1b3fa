// Keeps secrets out of the URLs Ferry shows or stores: a URL's user name and password, each query
// value and its fragment become `***`, whether the URL stands alone or inside an error text.
// Browser-safe, no imports, so the daemon, the CLI and the WebShell share the one rule.

export const REDACTED = '***'

/** A URL with a scheme, or a path with a query (`POST /mcp?key=…`, as servers echo requests). */
const URL_IN_TEXT =
  /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>`]+|(?<=^|[\s"'(<=:,;[])\/[^\s"'<>`?#]*\?[^\s"'<>`]*/g

/** Punctuation that ends a sentence rather than the URL before it. */
const TRAILING = /[.,;:!?)\]}]+$/

/**
 * `url` with its userinfo, every query value (a parameter without `=` counts as a value), and its
 * fragment replaced by `***`; the scheme, host, port, path and query keys are kept as written.
 */
export function redactUrl(url: string): string {
  const fragmentAt = url.indexOf('#')
  const beforeFragment = fragmentAt === -1 ? url : url.slice(0, fragmentAt)
  const fragment = fragmentAt === -1 ? '' : url.slice(fragmentAt + 1)
  const queryAt = beforeFragment.indexOf('?')
  const beforeQuery = queryAt === -1 ? beforeFragment : beforeFragment.slice(0, queryAt)
  const query = queryAt === -1 ? undefined : beforeFragment.slice(queryAt + 1)
  return (
    withoutUserinfo(beforeQuery) +
    (query === undefined ? '' : `?${redactQuery(query)}`) +
    (fragmentAt === -1 ? '' : `#${fragment === '' ? '' : REDACTED}`)
  )
}

/** `text` with every URL in it redacted as `redactUrl` does; the rest of the text unchanged. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const trailing = TRAILING.exec(found)?.[0] ?? ''
    return redactUrl(found.slice(0, found.length - trailing.length)) + trailing
  })
}

function withoutUserinfo(head: string): string {
  const schemeEnd = head.indexOf('://')
  if (schemeEnd === -1) return head
  const authorityStart = schemeEnd + 3
  const pathAt = head.indexOf('/', authorityStart)
  const authority = pathAt === -1 ? head.slice(authorityStart) : head.slice(authorityStart, pathAt)
  const at = authority.lastIndexOf('@')
  if (at === -1) return head
  return `${head.slice(0, authorityStart)}${REDACTED}${head.slice(authorityStart + at)}`
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((parameter) => {
      if (parameter === '') return parameter
      const equals = parameter.indexOf('=')
      if (equals === -1) return REDACTED
      return equals === parameter.length - 1
        ? parameter
        : `${parameter.slice(0, equals + 1)}${REDACTED}`
    })
    .join('&')
}
