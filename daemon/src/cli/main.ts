// The `ferry` command line: parses arguments and calls the command functions. Exit codes: 0 ok,
// 1 a tool returned isError, 2 usage, connection or daemon errors (with a one-line reason).

import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { version } from '../version.js'
import {
  cliContext,
  processIo,
  type CliContext,
  type CliIo,
  type GlobalOptions,
} from './context.js'
import type { ServeOptions } from './daemon-commands.js'
import { grantProgram } from './grant-program.js'
import { offeringProgram } from './offering-program.js'
import { terminalText } from './terminal-text.js'

// Commands load their modules on demand: `ferry call` should not pay for the daemon's imports.
const daemonCommands = () => import('./daemon-commands.js')
const serverCommands = () => import('./server-commands.js')
const signInCommands = () => import('./sign-in-commands.js')
const serviceCommands = () => import('./service.js')
const sessionCommands = () => import('./session-commands.js')
const workspaceCommands = () => import('./workspace-commands.js')
const gatewayCommands = () => import('./gateway-commands.js')
const hostConfigs = () => import('./host-config.js')
const observeCommands = () => import('./observe-commands.js')

export const EXIT_OK = 0
export const EXIT_FAILURE = 2

function integer(name: string, min: number) {
  return (raw: string): number => {
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min) {
      throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`)
    }
    return value
  }
}

function serveOptions(command: Command): Command {
  return command
    .addOption(
      // No default: without the option the daemon tries the previous run's port first.
      new Option(
        '--port <n>',
        "port to listen on; 0 picks a free one (default: the previous run's port if free, else a free one)",
      ).argParser(integer('--port', 0)),
    )
    .option('--host <address>', 'loopback address to bind: 127.0.0.1 or ::1', '127.0.0.1')
    .addOption(
      new Option(
        '--compact-above-mb <n>',
        'compact a session once its transcript file passes this size',
      )
        .argParser(integer('--compact-above-mb', 1))
        .default(64),
    )
    .option(
      '--workspace <dir>',
      "the workspace: its .ferry/settings.json is read, its sessions kept, and it is every server's root (default: the current directory, a root only when it has .ferry/settings.json)",
    )
    .option(
      '--new-token',
      "generate a new token instead of reusing the previous run's, locking out every open tab and link",
    )
}

export function buildProgram(
  run: (task: (ctx: CliContext) => Promise<number>) => void,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Command {
  const program = new Command('ferry')
    .description('A local daemon that owns your MCP server sessions.')
    .version(version)
    // Set before any subcommand exists: subcommands copy these when they are created.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .option(
      '--state-dir <dir>',
      'state directory (default: $FERRY_STATE_DIR, else $XDG_STATE_HOME/ferry, else ~/.local/state/ferry)',
    )
    .option(
      '--config <file>',
      'settings file to use instead of the user and workspace files (or $FERRY_CONFIG)',
    )

  serveOptions(program.command('serve').description('run the daemon in the foreground')).action(
    (options: ServeOptions) => run(async (c) => (await daemonCommands()).serve(c, options)),
  )
  serveOptions(
    program
      .command('start')
      .description('start the daemon in the background and print the WebShell URL'),
  ).action((options: ServeOptions) => run(async (c) => (await daemonCommands()).start(c, options)))
  program
    .command('stop')
    .description('stop the running daemon')
    .action(() => run(async (c) => (await daemonCommands()).stop(c)))
  program
    .command('status')
    .description('show whether the daemon runs, where, and how many servers are ready')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async (c) => (await daemonCommands()).status(c, options.json === true)),
    )
  program
    .command('servers')
    .description('list configured servers and their status')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async (c) => (await serverCommands()).servers(c, options.json === true)),
    )
  program
    .command('tools')
    .description('list the tools of ready servers under their qualified names')
    .option('--server <name>', 'only this server')
    .option('--refresh', 'list again through each client (cached lists may still apply)')
    .option('--json', 'print JSON')
    .action((options: { server?: string; refresh?: boolean; json?: boolean }) =>
      run(async (c) => (await serverCommands()).tools(c, options)),
    )
  program
    .command('call')
    .description('call a tool and print its result')
    .argument('<tool>', 'qualified tool name, e.g. mcp_demo_echo')
    .argument('[json-args]', 'arguments as a JSON object; - reads them from stdin')
    .option('--json', 'print the CallToolResult exactly as the server returned it')
    .option('--timeout <ms>', 'timeout in ms, reset by progress', integer('--timeout', 1))
    .option('--session <id>', "session to call in (default: this workspace's default session)")
    .option('-y, --yes', 'answer the confirmation with "allow once"')
    .action(
      (
        tool: string,
        rawArgs: string | undefined,
        options: { json?: boolean; timeout?: number; session?: string; yes?: boolean },
      ) => run(async (c) => (await serverCommands()).call(c, tool, rawArgs, options)),
    )
  offeringProgram(program, run)
  grantProgram(program, run)
  program
    .command('reload')
    .description('re-read settings; changed servers reconnect')
    .action(() => run(async (c) => (await serverCommands()).reload(c)))
  const workspace = program
    .command('workspace')
    .description(
      "show the servers this workspace's settings define that wait for your approval, as they would run",
    )
    .action(() => run(async (c) => (await workspaceCommands()).listWaiting(c)))
  workspace
    .command('approve')
    .description('approve workspace servers exactly as shown, and start them')
    .argument(
      '[servers...]',
      'NAME@DIGEST as `ferry workspace` shows it, or a name to show and ask about (default: every one that waits)',
    )
    .option('-y, --yes', 'approve what is shown without asking')
    .action((names: string[], options: { yes?: boolean }) =>
      run(async (c) => (await workspaceCommands()).approve(c, names, options)),
    )
  program
    .command('mcp')
    .description('be an MCP server on stdio for a host, relaying to Ferry (starts Ferry if needed)')
    .option('--client <name>', 'the gateway token it uses, created on first use', 'stdio')
    .action((options: { client: string }) =>
      run(async (c) => (await import('./mcp-bridge.js')).mcpBridge(c, options)),
    )
  program
    .command('config')
    .description("Ferry's own settings")
    .command('input')
    .description(
      'answer a ${input:id} placeholder (VS Code .vscode/mcp.json) without editing its file: typed unseen, or read from stdin',
    )
    .argument('<id>', 'the input id, as in ${input:id}')
    .option('--from-env <name>', 'answer with an environment variable, ${NAME}, not its value')
    .action((id: string, options: import('./config-commands.js').InputOptions) =>
      run(async (c) => (await import('./config-commands.js')).answerInput(c, id, options)),
    )
  const gateway = program
    .command('gateway')
    .description('serve your servers to MCP clients (agents) on /mcp')
  gateway
    .command('config')
    .description("print the snippet for an MCP host's configuration")
    .addArgument(
      new Argument('<host>', 'the MCP host').choices([
        'claude-desktop',
        'claude-code',
        'cursor',
        'vscode',
        'codex',
      ]),
    )
    .option(
      '--stdio',
      'launch `ferry mcp` instead of connecting to /mcp (always for claude-desktop)',
    )
    .action((host: import('./host-config.js').Host, options: { stdio?: boolean }) =>
      run(async (c) => (await hostConfigs()).printHostConfig(c, host, options.stdio === true)),
    )
  const token = gateway
    .command('token')
    .description('the credentials MCP clients use on /mcp (never the admin token)')
  token
    .command('create')
    .description('create a token for one MCP client and print it (once)')
    .argument('<client-name>', 'the client, e.g. claude-code; names its calls in transcripts')
    .option(
      '--servers <globs>',
      'comma-separated server names or globs it may reach (default: all)',
    )
    .option('--unprefixed', "with exactly one server: its tools keep the server's own names")
    .option('--session <id>', "session its calls go to (default: the workspace's default session)")
    .option('--confirm-in-client', "also ask confirmations of the client's user (elicitation)")
    .option('--tool-search', 'list a search tool (and pinned tools) instead of every tool')
    .option('--json', 'print JSON')
    .action((name: string, options: import('./gateway-commands.js').CreateOptions) =>
      run(async (c) => (await gatewayCommands()).createToken(c, name, options)),
    )
  token
    .command('list')
    .description('list gateway tokens: names, scopes, creation and last use')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async (c) => (await gatewayCommands()).listTokens(c, options.json === true)),
    )
  token
    .command('revoke')
    .description("end a client's token at once")
    .argument('<client-name>', 'the client name it was created with')
    .action((name: string) => run(async (c) => (await gatewayCommands()).revokeToken(c, name)))
  const sessions = program.command('sessions').description('list and manage sessions')
  sessions
    .command('list', { isDefault: true })
    .description('list sessions')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async (c) => (await sessionCommands()).listSessions(c, options.json === true)),
    )
  sessions
    .command('new')
    .description('create a session in this workspace and print its id')
    .option('--name <name>', 'a name for it', 'untitled')
    .action((options: { name: string }) =>
      run(async (c) => (await sessionCommands()).newSession(c, options.name)),
    )
  sessions
    .command('rename')
    .argument('<id>', 'session id')
    .argument('<name>', 'new name')
    .action((id: string, name: string) =>
      run(async (c) => (await sessionCommands()).renameSession(c, id, name)),
    )
  sessions
    .command('compact')
    .description("rewrite a session's history in compacted form")
    .argument('<id>', 'session id')
    .action((id: string) => run(async (c) => (await sessionCommands()).compactSession(c, id)))
  sessions
    .command('rm')
    .description('delete a session and its transcript')
    .argument('<id>', 'session id')
    .action((id: string) => run(async (c) => (await sessionCommands()).removeSession(c, id)))
  program
    .command('open')
    .description('open the WebShell in the default browser')
    .argument('[session]', "session id (default: this workspace's default session)")
    .option('--print', 'only print the URL')
    .action((session: string | undefined, options: { print?: boolean }) =>
      run(async (c) =>
        (await import('./open-command.js')).openWebShell(c, session, options.print === true),
      ),
    )
  program
    .command('attach')
    .description("follow a session live (default: this workspace's default session)")
    .argument('[session]', 'session id')
    .option('--plain', 'print events as lines (for pipes and logs); never answers confirmations')
    .option('--json', 'print each event as one JSON line; never answers confirmations')
    .addOption(
      new Option(
        '--read-only',
        'full screen only: watch without the ability to call, cancel or answer',
      ).conflicts(['plain', 'json']),
    )
    .action(
      (
        session: string | undefined,
        options: { plain?: boolean; json?: boolean; readOnly?: boolean },
      ) =>
        run(async (c) => {
          if (options.plain !== true && options.json !== true) {
            return (await import('./tui/attach-tui.js')).attachTui(c, session, {
              readOnly: options.readOnly === true,
            })
          }
          return (await import('./attach-plain.js')).attachPlain(c, session, {
            json: options.json === true,
          })
        }),
    )
  program
    .command('reconnect')
    .description("drop a server's connection and connect again now")
    .argument('<server>', 'server name')
    .action((server: string) => run(async (c) => (await serverCommands()).reconnect(c, server)))
  program
    .command('login')
    .description(
      'sign in to a remote server with OAuth: opens its page in your browser and waits until it connects',
    )
    .argument('<server>', 'server name')
    .option('--no-browser', 'print the page to open instead of opening a browser')
    .action((server: string, options: { browser: boolean }) =>
      run(async (c) => (await signInCommands()).login(c, server, options)),
    )
  program
    .command('logout')
    .description(
      "forget a remote server's sign-in (revoking its tokens where the server offers it)",
    )
    .argument('<server>', 'server name')
    .action((server: string) => run(async (c) => (await signInCommands()).logout(c, server)))
  for (const [name, description] of [
    ['logs', "print a server's stderr and MCP log messages, in the order they came"],
    ['trace', "print a server's protocol trace: its last 1,000 JSON-RPC messages each way"],
  ] as const) {
    const command = program
      .command(name)
      .description(description)
      .argument('<server>', 'server name')
      .option('-f, --follow', 'keep printing new ones as they come (Ctrl-C ends)')
      .option('--json', 'print each as one JSON line')
    if (name === 'logs') {
      command.option(
        '--level <level>',
        'ask the server to log at this level (debug, info, notice, warning, error, critical, alert, emergency) and print no MCP log message below it',
      )
    }
    command.action((server: string, options: import('./observe-commands.js').ObserveOptions) =>
      run(async (c) => (await observeCommands())[name](c, server, options)),
    )
  }
  const service = program.command('service').description('run Ferry as a login service')
  service
    .command('install')
    .description('write a systemd user unit or launchd agent')
    .action(() => run(async (c) => (await serviceCommands()).installService(c)))
  service
    .command('uninstall')
    .description('remove the unit or agent')
    .action(() => run(async (c) => (await serviceCommands()).uninstallService(c)))
  return program
}

/** Runs one command; `io` is the process's own unless the command runs inside another program. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let pending: Promise<number> | undefined
  const program = buildProgram((task) => {
    pending = task(cliContext(program.opts<GlobalOptions>(), io))
  }, io)
  try {
    await program.parseAsync(argv)
    return pending === undefined ? EXIT_OK : await pending
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT_OK : EXIT_FAILURE
    }
    // The message may quote a server (its error, its stderr): shown with control characters visible.
    const message = error instanceof Error ? error.message : String(error)
    io.stderr.write(`ferry: ${terminalText(message)}\n`)
    return EXIT_FAILURE
  }
}
