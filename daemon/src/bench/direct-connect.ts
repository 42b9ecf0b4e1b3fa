// The baseline of `pnpm bench startup`: what connecting a set of stdio servers costs without Ferry.
// One process connects an SDK client to each server at once (spawn, `initialize`, `tools/list`) and
// prints how long that took, in ms. `node direct-connect.js '<[{ "command", "args" }, …] JSON>'`.

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

const servers = JSON.parse(process.argv[2] ?? '[]') as Array<{ command: string; args: string[] }>
const started = performance.now()
const clients = await Promise.all(
  servers.map(async ({ command, args }) => {
    const client = new Client(
      { name: 'direct-connect', version: '0' },
      { versionNegotiation: { mode: 'legacy' } },
    )
    await client.connect(new StdioClientTransport({ command, args }))
    await client.listTools()
    return client
  }),
)
console.log(String(performance.now() - started))
await Promise.all(clients.map((client) => client.close()))
