// The baseline of `pnpm bench command-line`: a program that does what `ferry call` does for a
// person, without Ferry. It spawns the stdio server itself through the SDK, calls one tool, prints
// the result's text and exits. `node direct-call.js <server.js> <tool> <arguments JSON>`.

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

const [server, tool, args] = process.argv.slice(2)
if (server === undefined || tool === undefined) {
  console.error('usage: direct-call.js <server.js> <tool> [arguments JSON]')
  process.exit(2)
}
const client = new Client(
  { name: 'direct-call', version: '0' },
  { versionNegotiation: { mode: 'legacy' } },
)
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server] }))
const result = await client.callTool({
  name: tool,
  arguments: JSON.parse(args ?? '{}') as Record<string, unknown>,
})
for (const part of result.content as Array<{ type: string; text?: string }>) {
  if (part.type === 'text') console.log(part.text)
}
await client.close()
