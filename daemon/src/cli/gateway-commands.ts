// ferry gateway token create | list | revoke: the credentials MCP clients use on `/mcp`. A new
// token is printed once, on stdout alone, so `$(ferry gateway token create NAME)` captures it.

import type {
  GatewayTokenCreateRequest,
  GatewayTokenCreateResponse,
  GatewayTokenInfo,
} from '../protocol/index.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'
import { jsonText, terminalText } from './terminal-text.js'

export interface CreateOptions {
  servers?: string
  unprefixed?: boolean
  session?: string
  confirmInClient?: boolean
  toolSearch?: boolean
  json?: boolean
}

export async function createToken(
  ctx: CliContext,
  name: string,
  options: CreateOptions,
): Promise<number> {
  const body: GatewayTokenCreateRequest = {
    name,
    ...(options.servers === undefined
      ? {}
      : {
          servers: options.servers
            .split(',')
            .map((glob) => glob.trim())
            .filter((g) => g !== ''),
        }),
    ...(options.unprefixed === true ? { unprefixed: true } : {}),
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.confirmInClient === true ? { confirmInClient: true } : {}),
    ...(options.toolSearch === true ? { toolSearch: true } : {}),
  }
  const created = await (
    await connectDaemon(ctx.stateDir)
  ).post<GatewayTokenCreateResponse>('/gateway/tokens', body)
  if (options.json === true) {
    ctx.out(jsonText(created, 2))
    return 0
  }
  ctx.out(created.token)
  ctx.err(
    `Gateway token for "${created.info.name}" (shown once; Ferry keeps only its hash). MCP URL: ${created.url}`,
  )
  return 0
}

function describe(info: GatewayTokenInfo): string {
  const scope = info.servers.join(',') + (info.unprefixed ? ' (unprefixed)' : '')
  const session = info.session === null ? 'default session' : `session ${info.session}`
  const used = info.lastUsedAt === null ? 'never used' : `last used ${info.lastUsedAt}`
  const confirm = `${info.confirmInClient ? ', confirms in client' : ''}${info.toolSearch ? ', tool search' : ''}`
  return `${info.name}  servers ${scope}  ${session}${confirm}  created ${info.createdAt}  ${used}`
}

export async function listTokens(ctx: CliContext, json: boolean): Promise<number> {
  const list = await (await connectDaemon(ctx.stateDir)).get<GatewayTokenInfo[]>('/gateway/tokens')
  if (json) ctx.out(jsonText(list, 2))
  else if (list.length === 0)
    ctx.out('No gateway tokens. Create one with `ferry gateway token create <client-name>`.')
  else for (const info of list) ctx.out(terminalText(describe(info)))
  return 0
}

export async function revokeToken(ctx: CliContext, name: string): Promise<number> {
  await (
    await connectDaemon(ctx.stateDir)
  ).send('DELETE', `/gateway/tokens/${encodeURIComponent(name)}`)
  ctx.out(`Revoked the gateway token "${name}"; its client is refused from now on.`)
  return 0
}
