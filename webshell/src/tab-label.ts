// Names for what this tab makes: random ids, and the label it gives itself on the stream.

/** `bytes` random bytes as hex: ids that only need to be unlikely to repeat. */
export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

/** "WebShell tab 3f2a (Chrome)": the short id tells two tabs apart and survives a reload. */
export function tabLabel(): string {
  let id = sessionStorage.getItem('ferry.tab')
  if (id === null) {
    id = randomHex(2)
    sessionStorage.setItem('ferry.tab', id)
  }
  return `WebShell tab ${id} (${browserName()})`
}

function browserName(): string {
  const match = /(Firefox|Edg|Chrome|Chromium|Safari)\/[\d.]+/.exec(navigator.userAgent)
  return match?.[1] ?? 'browser'
}
