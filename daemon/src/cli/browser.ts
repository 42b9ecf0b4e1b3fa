// Opens a page in the person's browser, the way `ferry open` and `ferry login` do: the `BROWSER`
// environment variable first (programs separated by ":", each run with the URL as its one
// argument, as xdg-utils reads it), then `open` on macOS or `xdg-open` on Linux; detached, so the
// browser outlives the command. A program that exits with an error (`xdg-open` finding no browser)
// opened nothing, and the next one is tried.

import { spawn } from 'node:child_process'

function browserCommands(env: Record<string, string | undefined>): string[] {
  const chosen = (env.BROWSER ?? '').split(':').filter((command) => command.trim() !== '')
  if (process.platform === 'darwin') return [...chosen, 'open']
  if (process.platform === 'linux') return [...chosen, 'xdg-open']
  return chosen
}

/** A program still running after this long is the browser itself (a `BROWSER` such as firefox). */
const STILL_RUNNING_MS = 3_000

function start(
  command: string,
  url: string,
  env: Record<string, string | undefined>,
): Promise<boolean> {
  return new Promise((resolve) => {
    // The command line's own environment: its PATH finds the program, its DISPLAY the screen.
    const child = spawn(command, [url], { stdio: 'ignore', detached: true, env })
    const done = (opened: boolean) => {
      clearTimeout(running)
      child.removeAllListeners()
      child.unref()
      resolve(opened)
    }
    const running = setTimeout(() => done(true), STILL_RUNNING_MS)
    child.once('error', () => done(false))
    // An opener such as xdg-open hands the page to the browser and exits: 0 when it did.
    child.once('exit', (code) => done(code === 0))
  })
}

/** Starts the browser on `url`; false when none could be started. */
export async function launchBrowser(
  url: string,
  env: Record<string, string | undefined>,
): Promise<boolean> {
  for (const command of browserCommands(env)) {
    if (await start(command, url, env)) return true
  }
  return false
}

/**
 * Opens a page a server asked the person to visit, only an http or https one (an opener given
 * another scheme may run a program), and says what happened in one line.
 */
export async function openInBrowser(
  url: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `not opened: "${url}" is not a valid URL`
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `not opened: only http and https pages are opened, not ${parsed.protocol}`
  }
  return (await launchBrowser(parsed.href, env))
    ? `opened ${parsed.origin} in the browser`
    : `no browser could be started; open it yourself: ${parsed.href}`
}
