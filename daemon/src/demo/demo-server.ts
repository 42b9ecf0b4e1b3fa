// The bundled demo MCP server Ferry runs when no settings exist, so a new user sees working
// tools at once, an MCP App among them, and a prompt. It speaks both protocol eras over stdio.

import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { z } from 'zod'
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
import { registerRevenueDashboard } from './revenue-dashboard.js'

function createDemoServer(): McpServer {
  const server = new McpServer(
    { name: 'ferry-demo', version: '1.0.0' },
    // Says it serves MCP Apps, so hosts that show them read the dashboard's resource.
    {
      capabilities: {
        extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } },
      },
    },
  )

  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the text it is given.',
      inputSchema: z.object({ text: z.string().describe('Text to send back') }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  )

  server.registerTool(
    'add',
    {
      title: 'Add numbers',
      description: 'Adds two numbers and returns the sum as text and structured content.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  )

  server.registerTool(
    'countdown',
    {
      title: 'Countdown',
      description:
        'Counts down from `from` to zero, one step per `intervalMs`, reporting progress.',
      inputSchema: z.object({
        from: z.number().int().min(1).max(100).default(5),
        intervalMs: z.number().int().min(10).max(5000).default(500),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ from, intervalMs }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken
      for (let step = 1; step <= from; step++) {
        await new Promise((resolve) => setTimeout(resolve, intervalMs))
        if (ctx.mcpReq.signal.aborted) break
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: step,
              total: from,
              message: `${from - step} left`,
            },
          })
        }
      }
      return { content: [{ type: 'text', text: 'Lift-off!' }] }
    },
  )

  server.registerTool(
    'write_note',
    {
      title: 'Write a note',
      description:
        'Pretends to save a note; marked as not read-only, so Ferry asks before running it.',
      inputSchema: z.object({ title: z.string(), body: z.string().optional() }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ title }) => ({ content: [{ type: 'text', text: `Saved note "${title}".` }] }),
  )

  server.registerPrompt(
    'greeting',
    {
      title: 'Greeting',
      description: 'Asks for a short, friendly greeting for someone.',
      argsSchema: z.object({ name: z.string().describe('Who to greet') }),
    },
    ({ name }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Write a short, friendly greeting for ${name}.` },
        },
      ],
    }),
  )

  registerRevenueDashboard(server)
  return server
}

serveStdio(() => createDemoServer())
