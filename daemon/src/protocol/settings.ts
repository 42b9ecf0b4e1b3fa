// What the daemon says when the settings it was asked to reload cannot be read: the problem, where
// in which file, and the events that tell every transcript of the workspace. Zod schemas, types
// inferred; the WebShell imports the types only.

import { z } from 'zod'

/**
 * Why the settings could not be read. `file`, `line` and `column` (1-based) say where, when known;
 * `message` says it all in one line, e.g. `/home/a/.ferry/settings.json:3:5: invalid JSON
 * (expected ',')`.
 */
export const settingsProblemSchema = z.object({
  file: z.string().nullable(),
  line: z.number().int().positive().nullable(),
  column: z.number().int().positive().nullable(),
  message: z.string(),
})
export type SettingsProblem = z.infer<typeof settingsProblemSchema>

/** `settings.failed`: a reload could not read the settings; those read before stay in force. */
export const settingsFailedSchema = z.object({
  type: z.literal('settings.failed'),
  problem: settingsProblemSchema,
})
export type SettingsFailedEvent = z.infer<typeof settingsFailedSchema>

/** `settings.recovered`: after a `settings.failed`, a reload read the settings cleanly again. */
export const settingsRecoveredSchema = z.object({ type: z.literal('settings.recovered') })
export type SettingsRecoveredEvent = z.infer<typeof settingsRecoveredSchema>
