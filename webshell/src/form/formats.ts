// The string formats a form checks itself (the ones MCP's elicitation schema names: email, uri,
// date, date-time), and the input each is typed into. Other formats are left to the server.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/u
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/u
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/u

function isDate(text: string): boolean {
  const match = DATE.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  )
}

function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text)
  if (match === null || !isDate(match[1] ?? '')) return false
  // A leap second (60) is allowed, as RFC 3339 does.
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) <= 60
}

const CHECKS: Record<string, { valid: (text: string) => boolean; hint: string }> = {
  email: { valid: (text) => EMAIL.test(text), hint: 'an email address, like name@example.com' },
  uri: { valid: (text) => URI.test(text), hint: 'a URI with a scheme, like https://example.com' },
  date: { valid: isDate, hint: 'a date, like 2026-12-31' },
  'date-time': { valid: isDateTime, hint: 'a date and time, like 2026-12-31T09:30:00Z' },
}

/** What is wrong with `text` for `format`, if the form checks that format. */
export function formatProblem(format: string | undefined, text: string): string | undefined {
  const check = format === undefined ? undefined : CHECKS[format]
  if (check === undefined || check.valid(text)) return undefined
  return `must be ${check.hint}`
}

/** The `type` of the input for a string of `format`. */
export function inputType(format: string | undefined): 'text' | 'email' | 'url' | 'date' {
  if (format === 'email') return 'email'
  if (format === 'uri') return 'url'
  if (format === 'date') return 'date'
  return 'text'
}

/** A placeholder showing the shape a formatted string takes. */
export function formatPlaceholder(format: string | undefined): string | undefined {
  if (format === 'date-time') return '2026-12-31T09:30:00Z'
  if (format === 'email') return 'name@example.com'
  if (format === 'uri') return 'https://'
  return undefined
}
