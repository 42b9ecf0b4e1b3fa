// How every view words settings that could not be read, and their recovery: the same sentence in
// the WebShell's banner and transcript, the terminal's feed and `ferry attach --plain`.
// Browser-safe and free of imports.

/** The problem, where it is, and what to do about it. */
export function settingsProblemText(problem: { message: string }): string {
  return (
    `Settings not applied: ${problem.message}. Ferry keeps the settings it read before; ` +
    'fix the file and run `ferry reload`.'
  )
}

export const SETTINGS_RECOVERED_TEXT = 'The settings read cleanly again.'
