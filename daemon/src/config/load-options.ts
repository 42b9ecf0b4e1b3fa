// The inputs the settings loader needs from its caller, so it never reads process state itself.

export interface LoadOptions {
  /** Directory whose `.ferry/settings.json` is the workspace file; relative paths resolve here. */
  cwd: string
  /** `--config FILE`; replaces the user and workspace files. Falls back to `env.FERRY_CONFIG`. */
  configFile?: string | undefined
  /** The daemon's environment: `XDG_CONFIG_HOME`, `FERRY_CONFIG` and `$VAR` expansion. */
  env: Record<string, string | undefined>
  homeDir: string
  /**
   * The stored approvals of this workspace: server name → fingerprint of the entry as written.
   * A workspace entry starts only when its current fingerprint is here.
   */
  approvals?: Readonly<Record<string, string>> | undefined
}
