// Loads Ferry's settings: reads the user and workspace files (or one explicit file), merges them,
// and resolves every server to enabled, disabled or invalid. Falls back to the demo server.

import { demoSettings } from './demo-settings.js'
import type { LoadOptions } from './load-options.js'
import { readSettingsFile, type SettingsFile } from './read-settings-file.js'
import { resolveServer } from './resolve-server.js'
import { settingsPaths } from './settings-paths.js'
import type { ServerEntry, Settings } from './types.js'

export async function loadSettings(options: LoadOptions): Promise<Settings> {
  const paths = settingsPaths(options)
  let files: SettingsFile[]
  if (paths.explicit !== undefined) {
    const file = await readSettingsFile(paths.explicit, true)
    files = file === undefined ? [] : [file]
  } else {
    const read = await Promise.all(
      [paths.user, paths.workspace].map((path) => readSettingsFile(path, false)),
    )
    files = read.filter((file): file is SettingsFile => file !== undefined)
  }
  if (files.length === 0) return demoSettings()

  // Later files win for servers: a workspace entry replaces the user's entry of the same name as a
  // whole. The lists only tighten: a repository's settings can never re-allow what the user's
  // `mcp.allowed` leaves out or `mcp.excluded` names.
  const entries = new Map<string, { raw: unknown; file: string }>()
  const allowed: string[][] = []
  const excluded: string[] = []
  const warnings: string[] = []
  for (const file of files) {
    for (const [name, raw] of file.servers) entries.set(name, { raw, file: file.path })
    if (file.allowed !== undefined) allowed.push(file.allowed)
    excluded.push(...(file.excluded ?? []))
    warnings.push(...file.warnings)
  }

  const servers: ServerEntry[] = []
  for (const [name, { raw, file }] of entries) {
    const resolved = resolveServer({
      name,
      raw,
      file,
      env: options.env,
      policy: { allowed, excluded },
    })
    // A repository must not be able to switch confirmations off: only the user's own settings
    // (or an explicit --config file) may trust a server.
    const entry = resolved.entry
    if (entry.state === 'enabled' && entry.config.trust && file === paths.workspace) {
      entry.config = { ...entry.config, trust: false }
      warnings.push(
        `mcpServers.${name}.trust: ignored in workspace settings; trust a server in your user settings`,
      )
    }
    servers.push(entry)
    warnings.push(...resolved.warnings)
  }
  return {
    files: files.map((file) => file.path),
    servers,
    warnings: [...new Set(warnings)],
    usingDemo: false,
  }
}
