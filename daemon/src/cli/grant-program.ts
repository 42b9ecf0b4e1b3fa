// The `ferry grants [list] | revoke` commands: the "always allow" grants in force in a session,
// who gave each, for what and since when, and their revocation. The work loads on demand.

import type { Command } from 'commander'
import type { CliContext } from './context.js'

const commands = () => import('./grant-commands.js')

type Run = (task: (ctx: CliContext) => Promise<number>) => void

export function grantProgram(program: Command, run: Run): void {
  const grants = program
    .command('grants')
    .description('list and revoke the "always allow" grants in force in a session')
  grants
    .command('list', { isDefault: true })
    .description('list the grants in force: id, what it allows, who gave it, whose calls, since')
    .option('--session <id>', "session (default: this workspace's default session)")
    .option('--json', 'print JSON')
    .action((options: { session?: string; json?: boolean }) =>
      run(async (c) => (await commands()).listGrants(c, options)),
    )
  grants
    .command('revoke')
    .description('end grants at once; the transcript records who revoked them')
    .argument('[ids...]', 'grant ids, as `ferry grants` lists them')
    .option('--all', 'every grant of the session')
    .option('--session <id>', "session (default: this workspace's default session)")
    .action((ids: string[], options: { all?: boolean; session?: string }) =>
      run(async (c) => (await commands()).revokeGrants(c, ids, options)),
    )
}
