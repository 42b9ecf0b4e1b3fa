// What a workspace entry waiting for the person's approval is shown as, and how an approval names
// what it approves: the digest of that description. Zod schemas, types inferred; the WebShell
// imports the types only.

import { z } from 'zod'

/** A digest as the daemon shows it: SHA-256, 64 lowercase hex characters. */
export const DIGEST_PATTERN = /^[0-9a-f]{64}$/

/** A file inside the workspace that the entry names as its command, an argument or its `envFile`. */
export const workspaceFileSchema = z.object({
  /** Absolute, symbolic links followed. */
  path: z.string(),
  /** SHA-256 of its content; null when it could not be read (the reason is in `unreadable`). */
  sha256: z.string().nullable(),
  unreadable: z.string().nullable(),
})
export type WorkspaceFile = z.infer<typeof workspaceFileSchema>

/**
 * One waiting entry as it would run, before any expansion: `${VAR}`s show as written, and no value of
 * `env` or `headers`, nor the URL's credentials or query values, is shown.
 */
export const workspaceEntrySchema = z.object({
  name: z.string(),
  /** The workspace settings file that defines it. */
  file: z.string(),
  /** The user file whose entry of the same name it replaces; null when none. */
  overrides: z.string().nullable(),
  transport: z.enum(['stdio', 'streamable-http', 'sse']).nullable(),
  command: z.string().nullable(),
  args: z.array(z.string()),
  cwd: z.string().nullable(),
  /** `url` or `httpUrl`, its userinfo, query values and fragment redacted. */
  url: z.string().nullable(),
  /** Names of its `env` variables, in file order. */
  env: z.array(z.string()),
  /** Names of its HTTP headers, in file order. */
  headers: z.array(z.string()),
  envFile: z.string().nullable(),
  /** Names of the daemon's environment variables it would expand (`$VAR`, `${VAR}`, …). */
  variables: z.array(z.string()),
  files: z.array(workspaceFileSchema),
  /** Binds the approval: the entry exactly as written (values shown or not) and `files`. */
  digest: z.string(),
  /** Why an earlier approval of this name no longer holds; null when there was none. */
  lapsed: z.string().nullable(),
})
export type WorkspaceEntry = z.infer<typeof workspaceEntrySchema>

/** `GET /api/workspace`: the entries of the workspace file that wait, as written now. */
export const workspaceResponseSchema = z.object({
  file: z.string(),
  waiting: z.array(workspaceEntrySchema),
})
export type WorkspaceResponse = z.infer<typeof workspaceResponseSchema>

/** Body of `POST /api/workspace/approve`: each entry by name and the digest that was shown. */
export const workspaceApproveRequestSchema = z.object({
  entries: z
    .array(
      z.object({
        name: z.string().min(1),
        digest: z.string().regex(DIGEST_PATTERN, {
          error: 'expected the 64-character digest that GET /api/workspace shows for the entry',
        }),
      }),
      { error: 'expected a list of { name, digest }, as GET /api/workspace shows them' },
    )
    .min(1, { error: 'name at least one entry to approve' })
    .max(1000),
})
export type WorkspaceApproveRequest = z.infer<typeof workspaceApproveRequestSchema>
