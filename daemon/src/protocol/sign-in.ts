// What `ferry login`, `ferry logout` and the WebShell's Sign in exchange with the daemon. Zod
// schemas, types inferred; the WebShell imports the types only.

import { z } from 'zod'
import { serverStatusSchema } from './server-status.js'

/** `POST /api/servers/{name}/login`: the page to open; the sign-in waits for its redirect. */
export const loginResponseSchema = z.object({
  server: z.string(),
  /** The authorization server's page, with `state`, PKCE challenge, scope and resource in it. */
  authorizationUrl: z.string(),
  /** When the pending sign-in is given up (ISO time). */
  expiresAt: z.string(),
})
export type LoginResponse = z.infer<typeof loginResponseSchema>

/**
 * `POST /api/servers/{name}/login/wait`: how the pending sign-in ended, or, after at most a
 * minute, that it is still pending (ask again).
 */
export const loginOutcomeSchema = z.object({
  server: z.string(),
  /** True when the browser has not come back yet; `status` is then the server's current one. */
  pending: z.boolean(),
  /** `ready` when the server connected with the new tokens. */
  status: serverStatusSchema,
  /** Why the sign-in or the connection after it failed; null when it worked and the server is ready. */
  error: z.string().nullable(),
})
export type LoginOutcome = z.infer<typeof loginOutcomeSchema>

/** `POST /api/servers/{name}/logout`. */
export const logoutResponseSchema = z.object({
  server: z.string(),
  /** Tokens or a registration were stored and are now forgotten. */
  forgotten: z.boolean(),
  /** The authorization server was asked to revoke the tokens and did not refuse. */
  revoked: z.boolean(),
})
export type LogoutResponse = z.infer<typeof logoutResponseSchema>
