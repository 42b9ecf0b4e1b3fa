// The Content-Security-Policy the sandbox proxy is served with, which the App inside it inherits:
// the declaration arrives in the `csp` query parameter, every domain in it is checked by
// `apps/csp-domains.ts` (a bare `scheme://host[:port]`, so nothing can add a directive, a keyword
// or a scheme), and the domains are placed into a fixed list of directives. There is no `'self'`
// anywhere: on the sandbox host that would be the daemon itself.

import { type AppCsp, checkCspDomains, CSP_DIRECTIVES } from '../apps/csp-domains.js'
import { ErrorCode, FerryError } from '../errors.js'

function badRequest(message: string): FerryError {
  return new FerryError(ErrorCode.BadRequest, message)
}

/**
 * The declaration in the `csp` query parameter: absent means no domains at all. Malformed JSON,
 * anything but an object, an unknown field or a bad entry is a 400 naming the problem.
 */
export function cspFromQuery(values: readonly string[] | undefined): AppCsp {
  if (values === undefined || values.length === 0) return {}
  if (values.length > 1) throw badRequest('csp: give the parameter only once')
  let declared: unknown
  try {
    declared = JSON.parse(values[0] as string)
  } catch (error) {
    throw badRequest(`csp: malformed JSON: ${(error as Error).message}`)
  }
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) {
    throw badRequest('csp is not an object')
  }
  // A field this page does not know would otherwise be dropped without a word.
  const unknown = Object.keys(declared).find(
    (key) => !(CSP_DIRECTIVES as readonly string[]).includes(key),
  )
  if (unknown !== undefined) {
    throw badRequest(
      `csp has an unknown field ${JSON.stringify(unknown.slice(0, 80))}; known: ${CSP_DIRECTIVES.join(', ')}`,
    )
  }
  const checked = checkCspDomains(declared)
  if (!checked.ok) throw badRequest(checked.reason)
  return checked.csp
}

function sources(domains: readonly string[] | undefined): string {
  return domains === undefined || domains.length === 0 ? "'none'" : domains.join(' ')
}

/**
 * The policy for a checked declaration. `frameAncestors` are the WebShell origins, the only pages
 * that may frame the proxy.
 */
export function buildAppCsp(csp: AppCsp, frameAncestors: Iterable<string>): string {
  const resources = csp.resourceDomains ?? []
  return [
    "default-src 'none'",
    ["script-src 'unsafe-inline'", ...resources].join(' '),
    ["style-src 'unsafe-inline'", ...resources].join(' '),
    ['img-src data: blob:', ...resources].join(' '),
    ['font-src data:', ...resources].join(' '),
    ['media-src data: blob:', ...resources].join(' '),
    `connect-src ${sources(csp.connectDomains)}`,
    `frame-src ${sources(csp.frameDomains)}`,
    // Otherwise workers fall back to script-src, and a worker script loaded from a resource
    // domain runs under its own response's policy, outside connect-src.
    "worker-src 'none'",
    `base-uri ${sources(csp.baseUriDomains)}`,
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${sources([...frameAncestors])}`,
  ].join('; ')
}
