// The inputs the settings loader needs from its caller, so it never reads process state itself.

import type { StoredApproval } from './approval-store.js'

export interface LoadOptions {
  /** Directory whose `.ferry/settings.json` is the workspace file; relative paths resolve here. */
  cwd: string
  /** `--config FILE`; replaces the user and workspace files. Falls back to `env.FERRY_CONFIG`. */
  configFile?: string | undefined
  /** The daemon's environment: `XDG_CONFIG_HOME`, `FERRY_CONFIG` and `$VAR` expansion. */
  env: Record<string, string | undefined>
  homeDir: string
  /**
   * The workspace was named on purpose (`--workspace DIR`): its directory is every server's root
   * even without a `.ferry/settings.json` in it.
   */
  workspaceDeclared?: boolean | undefined
  /**
   * The stored approvals of this workspace by server name. A workspace entry starts only when its
   * approval names the entry as it is described now.
   */
  approvals?: Readonly<Record<string, StoredApproval>> | undefined
}
