// The fallback when no settings file exists: one stdio server running Ferry's bundled demo server.

import { demoServerPath } from '../package-paths.js'
import {
  DEFAULT_APP_RESOURCE_TIMEOUT_MS,
  DEFAULT_LOG_LEVEL,
  DEFAULT_GATEWAY,
  DEFAULT_STDIO_DISCOVERY_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
} from './defaults.js'
import { fingerprint } from './fingerprint.js'
import type { Settings, StdioServerConfig } from './types.js'

export function demoSettings(workspaceFile: string, roots: string[] | false): Settings {
  const config: StdioServerConfig = {
    name: 'demo',
    transport: 'stdio',
    command: process.execPath,
    args: [demoServerPath],
    env: {},
    cwd: undefined,
    timeout: DEFAULT_TOOL_TIMEOUT_MS,
    discoveryTimeoutMs: DEFAULT_STDIO_DISCOVERY_MS,
    appResourceTimeoutMs: DEFAULT_APP_RESOURCE_TIMEOUT_MS,
    // The demo speaks both eras; negotiating shows a new user the 2026-07-28 protocol at work.
    versionNegotiation: 'auto',
    logLevel: DEFAULT_LOG_LEVEL,
    trust: false,
    includeTools: undefined,
    excludeTools: undefined,
    roots,
  }
  return {
    files: [],
    servers: [{ name: 'demo', state: 'enabled', config, fingerprint: fingerprint(config) }],
    warnings: [],
    usingDemo: true,
    workspaceFile,
    filesWithoutServers: [],
    gateway: { ...DEFAULT_GATEWAY },
  }
}
