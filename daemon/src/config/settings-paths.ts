// Where the settings files live: user (XDG config home), workspace (`<cwd>/.ferry`), or one explicit
// file from `--config` / `FERRY_CONFIG` that replaces both; and the input answers beside the user's.

import { isAbsolute, join, resolve } from 'node:path'
import type { LoadOptions } from './load-options.js'

export interface SettingsPaths {
  user: string
  workspace: string
  explicit: string | undefined
  /** The answers to `${input:id}` that `ferry config input` keeps, read with any settings file. */
  inputAnswers: string
}

export function settingsPaths(options: LoadOptions): SettingsPaths {
  const xdg = options.env.XDG_CONFIG_HOME
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const configHome =
    xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(options.homeDir, '.config')
  const explicit = nonEmpty(options.configFile) ?? nonEmpty(options.env.FERRY_CONFIG)
  return {
    user: join(configHome, 'ferry', 'settings.json'),
    inputAnswers: join(configHome, 'ferry', 'inputs.json'),
    workspace: resolve(options.cwd, '.ferry', 'settings.json'),
    explicit: explicit === undefined ? undefined : resolve(options.cwd, explicit),
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
