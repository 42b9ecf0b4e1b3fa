// "Always allow" grants: what an answer to a confirmation allows from then on, who gave it, whose
// calls it covers, and how it ends. Zod schemas, types inferred; the WebShell imports types only.

import { z } from 'zod'

/** A grant is for one tool (by qualified name) or for every tool of one server. */
export const grantScopeSchema = z.enum(['tool', 'server'])
export type GrantScope = z.infer<typeof grantScopeSchema>

const clientRefSchema = z.object({
  id: z.string(),
  kind: z.enum(['cli', 'attach', 'webshell', 'api', 'mcp']),
  label: z.string(),
})

/**
 * One grant in force, as `GET /api/grants` and `ferry grants --json` show it. Its id is the call
 * whose confirmation gave it. A person's grant covers every caller of its session; a gateway
 * client's covers that client's own calls only (`covers: "client"`).
 */
export const grantInfoSchema = z.object({
  id: z.string(),
  session: z.string(),
  scope: grantScopeSchema,
  /** The qualified tool name for a tool grant; null for a server grant. */
  tool: z.string().nullable(),
  server: z.string(),
  givenBy: clientRefSchema,
  covers: z.enum(['session', 'client']),
  /** When the answer that gave it was recorded (ISO 8601), and its seq in the transcript. */
  since: z.string(),
  seq: z.number().int(),
})
export type GrantInfo = z.infer<typeof grantInfoSchema>

/**
 * `grant.revoked`: a grant ended. The event's client is who revoked it; null when Ferry did (what
 * it was given for changed, or the gateway token that gave it was revoked), with `reason` saying why.
 */
export const grantRevokedSchema = z.object({
  type: z.literal('grant.revoked'),
  grantId: z.string(),
  scope: grantScopeSchema,
  tool: z.string().nullable(),
  server: z.string(),
  reason: z.string(),
})
export type GrantRevokedEvent = z.infer<typeof grantRevokedSchema>

/** `GET /api/grants?session=ID`: the grants in force in one session (its default if none named). */
export interface GrantsResponse {
  session: string
  grants: GrantInfo[]
}

/**
 * Body of `POST /api/grants/revoke`: the grants named by id, or every grant with `all` (the route
 * also takes the revoking `client`, as every answering route does).
 */
export const grantRevokeRequestSchema = z.object({
  session: z.string().min(1).optional(),
  ids: z.array(z.string().min(1).max(64)).max(1000).optional(),
  all: z.boolean().optional(),
})
export type GrantRevokeRequest = z.infer<typeof grantRevokeRequestSchema>

/** What `POST /api/grants/revoke` revoked. */
export interface GrantRevokeResponse {
  session: string
  revoked: GrantInfo[]
}
