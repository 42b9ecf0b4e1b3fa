// The `ferry prompts | prompt | resources | read | subscribe` commands; their work loads on demand.

import type { Command } from 'commander'
import type { CliContext } from './context.js'

const commands = () => import('./offering-commands.js')

type Run = (task: (ctx: CliContext) => Promise<number>) => void

export function offeringProgram(program: Command, run: Run): void {
  program
    .command('prompts')
    .description('list the prompts of ready servers under their qualified names')
    .option('--server <name>', 'only this server')
    .option('--json', 'print JSON')
    .action((options: { server?: string; json?: boolean }) =>
      run(async (c) => (await commands()).prompts(c, options)),
    )
  program
    .command('prompt')
    .description("get a prompt and print its messages (recorded in the session's transcript)")
    .argument('<name>', 'qualified prompt name, e.g. mcp_demo_greeting')
    .argument('[json-args]', 'arguments as a JSON object of strings')
    .option('--json', 'print the GetPromptResult exactly as the server returned it')
    .option('--session <id>', "session to record it in (default: this workspace's default session)")
    .action(
      (name: string, rawArgs: string | undefined, options: { json?: boolean; session?: string }) =>
        run(async (c) => (await commands()).prompt(c, name, rawArgs, options)),
    )
  program
    .command('resources')
    .description('list the resources and resource templates of ready servers')
    .option('--server <name>', 'only this server')
    .option('--json', 'print JSON')
    .action((options: { server?: string; json?: boolean }) =>
      run(async (c) => (await commands()).resources(c, options)),
    )
  program
    .command('read')
    .description('read a resource: print its text, or write its blob to a file')
    .argument('<server>', 'server name')
    .argument('<uri>', 'resource URI')
    .option('--out <file>', 'write the content (a blob as its bytes) to this file')
    .option('--json', 'print the ReadResourceResult exactly as the server returned it')
    .option('--session <id>', "session to record it in (default: this workspace's default session)")
    .action(
      (server: string, uri: string, options: { out?: string; json?: boolean; session?: string }) =>
        run(async (c) => (await commands()).read(c, server, uri, options)),
    )
  program
    .command('subscribe')
    .description(
      'follow a resource: print a line each time the server says it changed, until Ctrl-C',
    )
    .argument('<server>', 'server name')
    .argument('<uri>', 'resource URI')
    .option('--session <id>', "session to follow it in (default: this workspace's default session)")
    .action((server: string, uri: string, options: { session?: string }) =>
      run(async (c) => (await commands()).subscribe(c, server, uri, options)),
    )
}
