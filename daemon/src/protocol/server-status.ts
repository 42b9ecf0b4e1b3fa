// The states a configured server can be in, as every client shows them.

import { z } from 'zod'

export const serverStatusSchema = z.enum([
  'connecting',
  'ready',
  'failed',
  'invalid',
  'disabled',
  /** Defined by the workspace's settings file and not approved yet: not started, nothing expanded. */
  'awaiting_approval',
  /** A remote server that asks for an OAuth sign-in (`ferry login`) before it answers. */
  'needs_login',
])
export type ServerStatus = z.infer<typeof serverStatusSchema>
