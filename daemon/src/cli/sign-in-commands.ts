// ferry login | logout: OAuth sign-in to a remote server. The daemon makes the authorization page
// and receives the browser's redirect on its own callback; this command opens the page (or prints
// it) and waits until the server is connected with the new tokens, or says why not.

import { loginOutcomeSchema, loginResponseSchema, logoutResponseSchema } from '../protocol/index.js'
import { launchBrowser } from './browser.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'

export async function login(
  ctx: CliContext,
  server: string,
  options: { browser: boolean },
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const path = `/servers/${encodeURIComponent(server)}/login`
  const started = loginResponseSchema.parse(await client.post<unknown>(path))
  const url = started.authorizationUrl
  if (options.browser && (await launchBrowser(url, ctx.io.env))) {
    ctx.err(`Opened the sign-in page for ${server} in your browser; waiting for it to finish…`)
    ctx.err(`If it did not open, visit: ${url}`)
  } else {
    if (options.browser) ctx.err('No browser could be started; open this page to sign in:')
    else ctx.err(`Open this page to sign in to ${server}:`)
    ctx.out(url)
    ctx.err('Waiting for the sign-in to finish…')
  }
  let outcome = loginOutcomeSchema.parse(await client.post<unknown>(`${path}/wait`))
  while (outcome.pending) {
    outcome = loginOutcomeSchema.parse(await client.post<unknown>(`${path}/wait`))
  }
  if (outcome.status === 'ready' && outcome.error === null) {
    ctx.out(`Signed in to ${server}: ready`)
    return 0
  }
  ctx.err(`Signing in to ${server} did not work: ${outcome.error ?? outcome.status}`)
  return 2
}

export async function logout(ctx: CliContext, server: string): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const result = logoutResponseSchema.parse(
    await client.post<unknown>(`/servers/${encodeURIComponent(server)}/logout`),
  )
  if (!result.forgotten) ctx.out(`${server}: no sign-in was stored`)
  else if (result.revoked) ctx.out(`${server}: signed out; the tokens were revoked and forgotten`)
  else ctx.out(`${server}: signed out; the tokens were forgotten (the server offers no revocation)`)
  return 0
}
