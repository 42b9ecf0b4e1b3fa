// ferry open [session] [--print]: the WebShell URL (session in the query, token in the fragment), opened in the
// default browser (or printed, when asked or when no browser can be started).

import { resolve } from 'node:path'
import type { SessionInfo, StatusResponse } from '../protocol/index.js'
import { launchBrowser } from './browser.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'

export async function openWebShell(
  ctx: CliContext,
  session: string | undefined,
  print: boolean,
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  if (session === undefined) {
    // Sessions belong to the daemon's workspace (where it started and reads workspace settings);
    // say so when this terminal is somewhere else, so nobody looks for their calls elsewhere.
    const status = await client.get<StatusResponse>('/status')
    if (resolve(status.workspace) !== resolve(ctx.io.cwd)) {
      ctx.err(
        `Opening the default session of Ferry's workspace ${status.workspace}; name a session to open another (\`ferry sessions\` lists them).`,
      )
    }
  } else {
    const sessions = await client.get<SessionInfo[]>('/sessions')
    if (!sessions.some((candidate) => candidate.id === session)) {
      throw new Error(`no session "${session}"; run \`ferry sessions\` to list them`)
    }
  }
  // The session goes in the query, where the page keeps it; the token only in the fragment.
  const query = session === undefined ? '' : `?${new URLSearchParams({ session }).toString()}`
  const fragment = new URLSearchParams({ token: client.info.token })
  const url = `${client.info.url}${query}#${fragment.toString()}`
  if (print) {
    ctx.out(url)
    return 0
  }
  if (await launchBrowser(url, ctx.io.env)) {
    ctx.out(`Opened the WebShell in your browser.`)
    return 0
  }
  ctx.err(
    'No browser could be started here (set BROWSER to a browser program to choose one); open this address yourself:',
  )
  ctx.out(url)
  return 0
}
