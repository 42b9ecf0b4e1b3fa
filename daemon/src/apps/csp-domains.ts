// Checks an MCP App's CSP domain lists (`_meta.ui.csp`). The entries end up inside a
// Content-Security-Policy, where a quote, `;`, `,`, whitespace or a path would change or extend the
// policy, so every entry must be exactly `scheme://host[:port]`; and no entry may name the user's
// own machine or network, the daemon's own origins included. Browser-safe: no node: imports.

import type { AppCsp } from '../protocol/events.js'

export type { AppCsp }

export const CSP_DIRECTIVES = [
  'connectDomains',
  'resourceDomains',
  'frameDomains',
  'baseUriDomains',
] as const
export type CspDirective = (typeof CSP_DIRECTIVES)[number]

export const MAX_CSP_ENTRIES = 64
export const MAX_CSP_ENTRY_LENGTH = 300

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?'
const ENTRY = new RegExp(
  `^(https?|wss?)://((?:\\*\\.)?${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]+\\])(?::(\\d{1,5}))?$`,
)
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

export type CspCheck = { ok: true; csp: AppCsp } | { ok: false; reason: string }

/**
 * Validates `_meta.ui.csp` as sent by a server (or any other untrusted source). Absent means no
 * domains; unknown keys are dropped. The reason names the directive and the offending entry.
 */
export function checkCspDomains(csp: unknown): CspCheck {
  if (csp === undefined || csp === null) return { ok: true, csp: {} }
  if (typeof csp !== 'object' || Array.isArray(csp)) {
    return { ok: false, reason: 'csp is not an object' }
  }
  const out: AppCsp = {}
  for (const directive of CSP_DIRECTIVES) {
    const value = (csp as Record<string, unknown>)[directive]
    if (value === undefined) continue
    if (!Array.isArray(value)) return { ok: false, reason: `csp.${directive} is not a list` }
    if (value.length > MAX_CSP_ENTRIES) {
      return {
        ok: false,
        reason: `csp.${directive} has ${value.length} entries, at most ${MAX_CSP_ENTRIES} allowed`,
      }
    }
    const entries: string[] = []
    for (const [index, entry] of value.entries()) {
      if (typeof entry !== 'string') {
        return { ok: false, reason: `csp.${directive}[${index}] is not a string` }
      }
      const problem = checkCspEntry(entry)
      if (problem !== undefined) {
        return { ok: false, reason: `csp.${directive} entry ${quote(entry)} ${problem}` }
      }
      entries.push(entry)
    }
    out[directive] = entries
  }
  return { ok: true, csp: out }
}

/**
 * What is wrong with one entry, or undefined when it is a well-formed `scheme://host[:port]` on a
 * public host. A local host is refused in every directive: a resource domain loads scripts,
 * images and styles (GET requests to a local service or to the daemon itself), and a base URI on
 * one has no use but to aim the App's relative URLs there.
 */
export function checkCspEntry(entry: string): string | undefined {
  if (entry.length > MAX_CSP_ENTRY_LENGTH) {
    return `is longer than ${MAX_CSP_ENTRY_LENGTH} characters`
  }
  if (/[\s'"`;,]/.test(entry)) return "contains whitespace, a quote, ';' or ','"
  const match = ENTRY.exec(entry)
  if (match === null) {
    return 'is not of the form scheme://host[:port] with scheme http, https, ws or wss'
  }
  const [, scheme, host = '', port] = match
  if (port !== undefined && Number(port) > 65535) return `has port ${port}, above 65535`
  const wildcard = host.startsWith('*.')
  const bare = wildcard ? host.slice(2) : host
  if (wildcard && (!bare.includes('.') || IPV4.test(bare))) {
    return "has a '*.' wildcard that is not followed by a domain of at least two labels"
  }
  // The browser reads some hosts differently from how they are written (2130706433 is 127.0.0.1).
  const parsed = parseHostname(`${scheme}://${bare}`)
  if (parsed === undefined || parsed !== bare.toLowerCase()) {
    return 'has a host that is not in canonical form'
  }
  if (isLocalOrSpecialHost(bare)) {
    return 'points at a loopback, private, local-network or special-use host, which an App may not reach'
  }
  return undefined
}

/**
 * True for hosts on the user's own machine or network, and for addresses that lead there or to
 * more than one host: `localhost` and `*.localhost`, `.local`, `.internal` and `.home.arpa` names,
 * single-label names; loopback, private, link-local, shared, unspecified, benchmarking, multicast,
 * reserved and broadcast IPv4 addresses; and the IPv6 ones, with the tunnels and translations
 * that carry an IPv4 address (IPv4-mapped and -compatible, NAT64, 6to4, Teredo). Accepts a bare
 * host, a bracketed IPv6 address, or any spelling the browser would read as one of these.
 */
export function isLocalOrSpecialHost(host: string): boolean {
  const trimmed = host.trim().toLowerCase().replace(/\.$/, '')
  const bracketed = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed
  const name = parseHostname(`http://${bracketed}`) ?? trimmed
  if (name.startsWith('[')) return isPrivateIpv6(name.slice(1, -1))
  const v4 = ipv4Octets(name)
  if (v4 !== undefined) return isPrivateIpv4(v4)
  return (
    !name.includes('.') ||
    ['localhost', 'local', 'internal', 'home.arpa'].some(
      (suffix) => name === suffix || name.endsWith(`.${suffix}`),
    )
  )
}

function parseHostname(url: string): string | undefined {
  try {
    return new URL(url).hostname
  } catch {
    return undefined
  }
}

function ipv4Octets(host: string): number[] | undefined {
  const match = IPV4.exec(host)
  if (match === null) return undefined
  const octets = match.slice(1).map(Number)
  return octets.every((octet) => octet <= 255) ? octets : undefined
}

function isPrivateIpv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 || // "this network", 0.0.0.0 included
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // shared address space (carrier-grade NAT)
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking, often routed to a lab network
    a >= 224 // multicast (224/4), reserved (240/4) and the broadcast address 255.255.255.255
  )
}

function isPrivateIpv6(address: string): boolean {
  const words = ipv6Words(address)
  if (words === undefined) return true // unreadable: refuse rather than guess
  const [first = 0] = words
  const head = words.slice(0, 6)
  const v4 = [words[6] ?? 0, words[7] ?? 0].flatMap((word) => [word >> 8, word & 0xff])
  // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d, which no host is reached by.
  if (head.every((word) => word === 0)) return true
  if (head.slice(0, 5).every((word) => word === 0) && head[5] === 0xffff) {
    return isPrivateIpv4(v4) // IPv4-mapped
  }
  if (first === 0x64 && words[1] === 0xff9b) {
    return words[2] === 1 || isPrivateIpv4(v4) // local-use NAT64 (64:ff9b:1::/48), or NAT64
  }
  return (
    first === 0x2002 || // 6to4: an IPv4 address of any kind inside, relayed by whoever answers
    (first === 0x2001 && words[1] === 0) || // Teredo (2001::/32), the same through UDP
    (first === 0x0100 && words.slice(1, 4).every((word) => word === 0)) || // discard (100::/64)
    (first & 0xfe00) === 0xfc00 || // unique local
    (first & 0xffc0) === 0xfe80 || // link-local
    (first & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (first & 0xff00) === 0xff00 // multicast
  )
}

/** The eight 16-bit words of an IPv6 address as the URL parser prints it (`::` expanded). */
function ipv6Words(address: string): number[] | undefined {
  const [left = '', right, extra] = address.split('::')
  if (extra !== undefined) return undefined
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)))
  const head = parse(left)
  const tail = right === undefined ? [] : parse(right)
  const missing = 8 - head.length - tail.length
  if (missing < 0 || (right === undefined && missing !== 0)) return undefined
  const words = [...head, ...Array<number>(missing).fill(0), ...tail]
  return words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff)
    ? words
    : undefined
}

function quote(entry: string): string {
  return JSON.stringify(entry.length > 80 ? `${entry.slice(0, 80)}…` : entry)
}
