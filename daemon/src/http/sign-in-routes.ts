// OAuth sign-in over HTTP: `POST /api/servers/{name}/login|login/wait|logout` behind the admin
// token, and the browser's way back, `GET /oauth/callback`, which needs no token (the `state` it
// carries is what lets it in) and answers a small page that loads nothing.

import { Hono } from 'hono'
import type { SignInService } from '../core/sign-in-service.js'
import type { LoginOutcome, LoginResponse, LogoutResponse } from '../protocol/index.js'
import { CALLBACK_PATH } from '../mcp/oauth/sign-ins.js'

export function signInRoutes(signIn: SignInService): Hono {
  const api = new Hono()
  api.post('/servers/:name/login', async (c) =>
    c.json<LoginResponse>(await signIn.login(c.req.param('name'))),
  )
  api.post('/servers/:name/login/wait', async (c) =>
    c.json<LoginOutcome>(await signIn.wait(c.req.param('name'), c.req.raw.signal)),
  )
  api.post('/servers/:name/logout', async (c) =>
    c.json<LogoutResponse>(await signIn.logout(c.req.param('name'))),
  )
  return api
}

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'"

/** Mounts the callback on `app`; nothing else under `/oauth/` is served. */
export function mountOAuthCallback(app: Hono, signIn: () => SignInService): void {
  app.get(CALLBACK_PATH, async (c) => {
    const outcome = await signIn().callback(new URL(c.req.url).searchParams)
    c.header('Content-Security-Policy', PAGE_CSP)
    c.header('Referrer-Policy', 'no-referrer')
    return c.html(page(outcome.ok, outcome.message), outcome.ok ? 200 : 400)
  })
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function page(ok: boolean, message: string): string {
  const title = ok ? 'Signed in' : 'Sign-in not finished'
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry: ${title}</title>
<style>body{font:16px system-ui,sans-serif;margin:4rem auto;max-width:36rem;padding:0 1rem}</style>
</head><body><h1>${title}</h1><p>${escapeHtml(message)}</p></body></html>
`
}
