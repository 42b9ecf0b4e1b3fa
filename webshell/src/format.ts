// How the WebShell writes times and counts, the same in every part of the page: a time of day in
// the browser's locale (12- or 24-hour as the locale has it), and a count whose noun agrees with it.

const CLOCK = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })

/** The time of day of an ISO time, in the locale's format; '' for a missing or unreadable one. */
export function clock(time: string | undefined): string {
  if (time === undefined || time === '') return ''
  const date = new Date(time)
  return Number.isNaN(date.getTime()) ? '' : CLOCK.format(date)
}

/** `1 tool`, `2 tools`, `1,024 tools`; `plural` for a noun that does not take an s. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`
}
