// Opens a page in the person's default browser, the way `ferry open` does: `open` on macOS,
// `xdg-open` on Linux, detached so the browser outlives the command.

import { spawn } from 'node:child_process'

function browserCommand(): string | undefined {
  if (process.platform === 'darwin') return 'open'
  if (process.platform === 'linux') return 'xdg-open'
  return undefined
}

/** Starts the browser on `url`; false when none could be started. */
export function launchBrowser(url: string): Promise<boolean> {
  const command = browserCommand()
  if (command === undefined) return Promise.resolve(false)
  return new Promise((resolve) => {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true })
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
}

/**
 * Opens a page a server asked the person to visit, only an http or https one (an opener given
 * another scheme may run a program), and says what happened in one line.
 */
export async function openInBrowser(url: string): Promise<string> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `not opened: "${url}" is not a valid URL`
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `not opened: only http and https pages are opened, not ${parsed.protocol}`
  }
  return (await launchBrowser(parsed.href))
    ? `opened ${parsed.origin} in the browser`
    : `no browser could be started; open it yourself: ${parsed.href}`
}
