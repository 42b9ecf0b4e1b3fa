// A URL as written in settings, made safe to show: credentials, query values and the fragment are
// replaced. Works on text, not a parsed URL, because an entry not yet approved keeps its `${VAR}`s.

export const REDACTED = '[redacted]'

export function redactUrl(url: string): string {
  const hash = url.indexOf('#')
  const withoutFragment = hash === -1 ? url : url.slice(0, hash)
  const fragment = hash === -1 ? '' : `#${REDACTED}`
  const question = withoutFragment.indexOf('?')
  const base = question === -1 ? withoutFragment : withoutFragment.slice(0, question)
  const query =
    question === -1
      ? ''
      : `?${withoutFragment
          .slice(question + 1)
          .split('&')
          .map((pair) => {
            // A part without a name (`?abc123`) may itself be the secret.
            if (pair === '') return pair
            const equals = pair.indexOf('=')
            return equals === -1 ? REDACTED : `${pair.slice(0, equals)}=${REDACTED}`
          })
          .join('&')}`
  return `${redactUserinfo(base)}${query}${fragment}`
}

/** `scheme://user:pass@host/…` → `scheme://[redacted]@host/…`; the last `@` before the path counts. */
function redactUserinfo(base: string): string {
  const scheme = base.indexOf('://')
  const authorityStart = scheme === -1 ? 0 : scheme + 3
  const slash = base.indexOf('/', authorityStart)
  const authorityEnd = slash === -1 ? base.length : slash
  const at = base.lastIndexOf('@', authorityEnd - 1)
  if (at < authorityStart) return base
  return `${base.slice(0, authorityStart)}${REDACTED}${base.slice(at)}`
}
