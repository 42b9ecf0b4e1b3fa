// ferry gateway config <host>: the snippet to paste into an MCP host's configuration, on stdout
// alone (JSON, or TOML for Codex), and on stderr where it goes and how to get its token. No
// snippet holds a token: the HTTP ones read it from the environment or ask for it.

import { resolve } from 'node:path'
import { ferryBinPath } from '../package-paths.js'
import { stringify } from 'smol-toml'
import { readPreviousRuntimeFile, readRuntimeFile } from '../daemon/runtime-file.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { CliContext } from './context.js'
import { jsonText } from './terminal-text.js'

export type Host = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'codex'

/** The environment variable the HTTP snippets read the gateway token from. */
export const TOKEN_ENV = 'FERRY_MCP_TOKEN'

export interface HostConfig {
  /** What to paste. */
  snippet: string
  /** Where, and what to do first. */
  notes: string[]
}

interface Launch {
  command: string
  args: string[]
}

/** `ferry mcp` with absolute paths: hosts start it from anywhere, often with a bare PATH. */
function bridgeLaunch(ctx: CliContext, host: Host): Launch {
  const args = [
    ferryBinPath,
    'mcp',
    '--client',
    host,
    '--state-dir',
    resolve(ctx.io.cwd, ctx.stateDir),
  ]
  if (ctx.configFile !== undefined) args.push('--config', resolve(ctx.io.cwd, ctx.configFile))
  return { command: process.execPath, args }
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The URL of `/mcp`: the running daemon's, else the last run's, whose port a start tries first. */
async function gatewayUrl(ctx: CliContext): Promise<{ url: string; running: boolean }> {
  const running = await readRuntimeFile(ctx.stateDir)
  if (running !== undefined) return { url: new URL('mcp', running.url).href, running: true }
  const previous = await readPreviousRuntimeFile(ctx.stateDir)
  if (typeof previous?.url === 'string') {
    return { url: new URL('mcp', previous.url).href, running: false }
  }
  throw new FerryError(
    ErrorCode.DaemonNotRunning,
    `Ferry has not run with the state directory ${ctx.stateDir} yet, so the port of /mcp is not known; ` +
      'run `ferry start` first, or print the stdio form with --stdio',
  )
}

function createToken(host: Host, where: string): string {
  return `Create its token once, in the shell that starts ${where}: export ${TOKEN_ENV}=$(ferry gateway token create ${host})`
}

function stdioConfig(ctx: CliContext, host: Host): HostConfig {
  const launch = bridgeLaunch(ctx, host)
  const created = `ferry mcp creates the gateway token "${host}" on first use and starts Ferry if it is not running; no token goes in the file.`
  switch (host) {
    case 'claude-desktop':
      return {
        snippet: jsonText({ mcpServers: { ferry: launch } }, 2),
        notes: [
          'Add "ferry" to "mcpServers" in claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop.',
          created,
        ],
      }
    case 'claude-code':
      return {
        snippet: jsonText({ mcpServers: { ferry: { type: 'stdio', ...launch } } }, 2),
        notes: [
          `Add "ferry" to "mcpServers" in .mcp.json of your project, or run: claude mcp add ferry -- ${[launch.command, ...launch.args].map(shellQuote).join(' ')}`,
          created,
        ],
      }
    case 'cursor':
      return {
        snippet: jsonText({ mcpServers: { ferry: launch } }, 2),
        notes: [
          'Add "ferry" to "mcpServers" in ~/.cursor/mcp.json (or .cursor/mcp.json of a project).',
          created,
        ],
      }
    case 'vscode':
      return {
        snippet: jsonText({ servers: { ferry: { type: 'stdio', ...launch } } }, 2),
        notes: [
          'Add "ferry" to "servers" in .vscode/mcp.json (or your user mcp.json: "MCP: Open User Configuration").',
          created,
        ],
      }
    case 'codex':
      return {
        snippet: stringify({ mcp_servers: { ferry: launch } }),
        notes: ['Add this table to ~/.codex/config.toml.', created],
      }
  }
}

function httpConfig(host: Exclude<Host, 'claude-desktop'>, url: string): HostConfig {
  switch (host) {
    case 'claude-code':
      return {
        snippet: jsonText(
          {
            mcpServers: {
              ferry: { type: 'http', url, headers: { Authorization: `Bearer \${${TOKEN_ENV}}` } },
            },
          },
          2,
        ),
        notes: [
          `Add "ferry" to "mcpServers" in .mcp.json of your project (Claude Code fills in \${${TOKEN_ENV}}), or run: claude mcp add --transport http ferry ${url} --header "Authorization: Bearer $${TOKEN_ENV}"`,
          createToken(host, 'Claude Code'),
        ],
      }
    case 'cursor':
      return {
        snippet: jsonText(
          {
            mcpServers: {
              ferry: { url, headers: { Authorization: `Bearer \${env:${TOKEN_ENV}}` } },
            },
          },
          2,
        ),
        notes: [
          'Add "ferry" to "mcpServers" in ~/.cursor/mcp.json (or .cursor/mcp.json of a project).',
          createToken(host, 'Cursor'),
        ],
      }
    case 'vscode':
      return {
        snippet: jsonText(
          {
            inputs: [
              {
                type: 'promptString',
                id: 'ferry-token',
                description: 'Ferry gateway token (ferry gateway token create vscode)',
                password: true,
              },
            ],
            servers: {
              ferry: {
                type: 'http',
                url,
                headers: { Authorization: 'Bearer ${input:ferry-token}' },
              },
            },
          },
          2,
        ),
        notes: [
          'Merge into .vscode/mcp.json (or your user mcp.json: "MCP: Open User Configuration").',
          'VS Code asks for the token the first time it starts the server and keeps it; create it with: ferry gateway token create vscode',
        ],
      }
    case 'codex':
      return {
        snippet: stringify({ mcp_servers: { ferry: { url, bearer_token_env_var: TOKEN_ENV } } }),
        notes: ['Add this table to ~/.codex/config.toml.', createToken(host, 'Codex')],
      }
  }
}

export async function hostConfig(ctx: CliContext, host: Host, stdio: boolean): Promise<HostConfig> {
  if (stdio || host === 'claude-desktop') return stdioConfig(ctx, host)
  const { url, running } = await gatewayUrl(ctx)
  const config = httpConfig(host, url)
  if (!running) {
    config.notes.push(
      `Ferry is not running; ${url} is the address of its last run, whose port the next start tries first.`,
    )
  }
  config.notes.push(
    'The port can change when it is taken at a start: pin it with `ferry start --port N`, or use --stdio.',
  )
  return config
}

export async function printHostConfig(
  ctx: CliContext,
  host: Host,
  stdio: boolean,
): Promise<number> {
  const { snippet, notes } = await hostConfig(ctx, host, stdio)
  ctx.out(snippet.trimEnd())
  for (const note of notes) ctx.err(note)
  return 0
}
