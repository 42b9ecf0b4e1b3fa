// Public surface of the settings loader: load, locate, expand and match. Everything else is internal.

export { ApprovalStore } from './approval-store.js'
export { expandVars, type ExpandContext, type ExpandResult } from './expand-vars.js'
export type { LoadOptions } from './load-options.js'
export { loadSettings } from './load-settings.js'
export { matchesAny } from './matches-any.js'
export { settingsPaths, type SettingsPaths } from './settings-paths.js'
export type {
  FileWithoutServers,
  RemoteServerConfig,
  ServerConfig,
  ServerEntry,
  Settings,
  StdioServerConfig,
  TransportKind,
  VersionNegotiation,
} from './types.js'
