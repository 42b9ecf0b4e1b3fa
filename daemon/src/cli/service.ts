// ferry service install | uninstall: a systemd user unit (Linux) or a launchd agent (macOS)
// that runs `ferry serve` at login.

import { mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { ferryBinPath } from '../package-paths.js'
import { DAEMON_NODE_FLAGS } from '../daemon/node-flags.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { CliContext } from './context.js'

const LAUNCHD_LABEL = 'dev.ferry.daemon'

export interface ServiceFile {
  path: string
  contents: string
  /** What the user runs next to activate (or deactivate) it. */
  hint: string
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function systemdQuote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

export function serviceFile(ctx: CliContext, platform: NodeJS.Platform): ServiceFile {
  // The service runs from the home directory: every path it gets must be absolute.
  const command = [
    process.execPath,
    ...DAEMON_NODE_FLAGS,
    ferryBinPath,
    'serve',
    '--state-dir',
    resolve(ctx.io.cwd, ctx.stateDir),
  ]
  if (ctx.configFile !== undefined) command.push('--config', resolve(ctx.io.cwd, ctx.configFile))
  if (platform === 'linux') {
    const xdg = ctx.io.env.XDG_CONFIG_HOME
    const configHome = xdg && isAbsolute(xdg) ? xdg : join(ctx.homeDir, '.config')
    return {
      path: join(configHome, 'systemd', 'user', 'ferry.service'),
      contents: [
        '[Unit]',
        'Description=Ferry MCP daemon',
        '',
        '[Service]',
        `ExecStart=${command.map(systemdQuote).join(' ')}`,
        `WorkingDirectory=${ctx.homeDir}`,
        'Restart=on-failure',
        'KillMode=mixed',
        '',
        '[Install]',
        'WantedBy=default.target',
        '',
      ].join('\n'),
      hint: 'systemctl --user daemon-reload && systemctl --user enable --now ferry.service',
    }
  }
  if (platform === 'darwin') {
    const args = command.map((part) => `    <string>${xmlEscape(part)}</string>`).join('\n')
    return {
      path: join(ctx.homeDir, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`),
      contents: `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
  <key>WorkingDirectory</key>
  <string>${xmlEscape(ctx.homeDir)}</string>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
</dict>
</plist>
`,
      hint: `launchctl load -w ~/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`,
    }
  }
  throw new FerryError(
    ErrorCode.BadRequest,
    `ferry service supports Linux (systemd) and macOS (launchd), not ${platform}`,
  )
}

export async function installService(
  ctx: CliContext,
  platform = process.platform,
): Promise<number> {
  const file = serviceFile(ctx, platform)
  await mkdir(dirname(file.path), { recursive: true })
  await writeFile(file.path, file.contents, { mode: 0o644 })
  ctx.out(`Wrote ${file.path}`)
  ctx.out(`Activate it with: ${file.hint}`)
  return 0
}

export async function uninstallService(
  ctx: CliContext,
  platform = process.platform,
): Promise<number> {
  const file = serviceFile(ctx, platform)
  await rm(file.path, { force: true })
  ctx.out(`Removed ${file.path}`)
  ctx.out(
    platform === 'linux'
      ? 'If it was running: systemctl --user disable --now ferry.service'
      : `If it was loaded: launchctl unload ~/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`,
  )
  return 0
}
