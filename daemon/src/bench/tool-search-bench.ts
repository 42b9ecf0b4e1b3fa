// Tool search: what a `--tool-search` client saves and how well it finds tools. A daemon serves ten
// servers (server-everything, server-filesystem, the conformance, offerings and stdio fixtures,
// the demo, and four stdio fixtures with 100 filler tools each: about 500 tools). It prints the
// bytes of the first `tools/list` with and without tool search, and for 50 tasks written in plain
// words from what the tools do (not their names), how often the right tool is among the first five
// results of `ferry_search_tools`.

import { mkdtemp } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { GatewayTokenCreateResponse } from '../protocol/index.js'
import { SEARCH_TOOL } from '../gateway/tool-search.js'
import { demoServerPath } from '../package-paths.js'
import { fixtureEntry, startBenchDaemon } from './bench-env.js'

const require = createRequire(import.meta.url)
const fixtures = (name: string) =>
  fileURLToPath(new URL(`../../../e2e/dist/fixtures/${name}`, import.meta.url))

/** A task as a person would put it, and the tool (by its server's own name) that does it. */
export const SEARCH_TASKS: ReadonlyArray<{ task: string; tool: string }> = [
  { task: 'show me what is inside a text document on disk', tool: 'read_text_file' },
  { task: 'open a picture and give it to me as an image', tool: 'read_media_file' },
  { task: 'look at several documents at once to compare them', tool: 'read_multiple_files' },
  { task: 'save this content to a new document, replacing it if it is there', tool: 'write_file' },
  { task: 'change some lines in a document and show me the diff', tool: 'edit_file' },
  { task: 'make a new folder, with its parents if needed', tool: 'create_directory' },
  { task: 'what is in this folder', tool: 'list_directory' },
  { task: 'which entries in this folder take the most space', tool: 'list_directory_with_sizes' },
  { task: 'give me the whole nested hierarchy of folders as JSON', tool: 'directory_tree' },
  { task: 'rename a document or put it somewhere else', tool: 'move_file' },
  { task: 'find every path that matches a glob pattern, recursively', tool: 'search_files' },
  { task: 'when was this modified and what are its permissions', tool: 'get_file_info' },
  { task: 'which folders am I permitted to access', tool: 'list_allowed_directories' },
  { task: 'add two numbers together', tool: 'get-sum' },
  { task: 'print every environment variable of the server for debugging', tool: 'get-env' },
  { task: 'give me a very small logo picture', tool: 'get-tiny-image' },
  { task: 'compress some data with gzip', tool: 'gzip-file-as-resource' },
  { task: 'switch the random log messages on or off', tool: 'toggle-simulated-logging' },
  { task: 'start or stop fake updates of subscribed resources', tool: 'toggle-subscriber-updates' },
  {
    task: 'run something that takes a while and reports how far it got',
    tool: 'trigger-long-running-operation',
  },
  { task: 'which roots did the client tell the server about', tool: 'get-roots-list' },
  { task: 'have the server ask the user to fill in a form', tool: 'trigger-elicitation-request' },
  {
    task: 'send the user to a web page in the browser to sign in',
    tool: 'trigger-url-elicitation',
  },
  {
    task: 'ask the language model for a completion on behalf of the server',
    tool: 'trigger-sampling-request',
  },
  {
    task: 'investigate a topic in depth and synthesize the findings',
    tool: 'simulate-research-query',
  },
  { task: 'return a message with audience and priority metadata', tool: 'get-annotated-message' },
  { task: 'list links to several kinds of resources', tool: 'get-resource-links' },
  { task: 'weather-like data validated against an output schema', tool: 'get-structured-content' },
  { task: 'echo back what I typed', tool: 'echo' },
  { task: 'give me an image content block to test rendering', tool: 'test_image_content' },
  { task: 'return some sound', tool: 'test_audio_content' },
  { task: 'a tool that always errors, to test failure handling', tool: 'test_error_handling' },
  {
    task: 'answer with a text, a picture and a resource together',
    tool: 'test_multiple_content_types',
  },
  { task: 'say hello to someone by name', tool: 'greet' },
  { task: 'keep computing for a number of seconds until I cancel', tool: 'slow_compute' },
  {
    task: 'a job that runs for a second and then fails with a JSON-RPC error',
    tool: 'protocol_error_job',
  },
  { task: 'tell clients the list of prompts has changed', tool: 'test_trigger_prompt_change' },
  {
    task: 'validate an address, email and phone with a modern JSON schema',
    tool: 'json_schema_2020_12_tool',
  },
  { task: 'modify a resource and notify everyone subscribed to it', tool: 'touch' },
  { task: 'close all the open listen streams', tool: 'end_listens' },
  { task: 'create a prompt and a resource at runtime', tool: 'add_offerings' },
  { task: 'wait for a number of steps, reporting progress, until cancelled', tool: 'slow' },
  { task: 'make the server process exit with a code', tool: 'crash' },
  { task: 'one block of every content kind plus structured content', tool: 'rich' },
  { task: 'count down to zero, step by step', tool: 'countdown' },
  { task: 'store a note with a title and a body', tool: 'write_note' },
  { task: "chart a quarter's monthly revenue for a region", tool: 'show_revenue_dashboard' },
  { task: 'sum two values and return structured output', tool: 'add' },
  { task: 'log three messages while running', tool: 'test_tool_with_logging' },
  { task: 'report progress at zero, half and done', tool: 'test_tool_with_progress' },
]

function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'tool-search-bench', version: '1.0.0' })
  return client
    .connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    )
    .then(() => client)
}

/** The bytes of the first `tools/list` page as JSON. */
async function listBytes(client: Client): Promise<{ bytes: number; count: number }> {
  const listed = await client.listTools()
  return { bytes: Buffer.byteLength(JSON.stringify(listed)), count: listed.tools.length }
}

export async function benchToolSearch(): Promise<void> {
  const files = await mkdtemp(join(tmpdir(), 'ferry-bench-files-'))
  const trusted = { trust: true }
  const daemon = await startBenchDaemon({
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
        ...trusted,
      },
      files: {
        command: process.execPath,
        args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), files],
        roots: false,
        ...trusted,
      },
      conformance: {
        command: process.execPath,
        args: [fixtures('conformance-server.js')],
        ...trusted,
      },
      offerings: {
        command: process.execPath,
        args: [fixtures('offerings-server.js'), '--era', 'legacy'],
        ...trusted,
      },
      fixture: fixtureEntry([], trusted),
      demo: { command: process.execPath, args: [demoServerPath], ...trusted },
      ...Object.fromEntries(
        [1, 2, 3, 4].map((n) => [`filler${n}`, fixtureEntry(['--extra-tools', '100'], trusted)]),
      ),
    },
  })
  try {
    await daemon.waitAllReady(10)
    const token = async (name: string, flags: Record<string, unknown>) =>
      (await daemon.api<GatewayTokenCreateResponse>('/gateway/tokens', { name, ...flags })).token
    const url = new URL('mcp', daemon.info.url).href
    const full = await mcpClient(url, await token('bench-full', {}))
    const searching = await mcpClient(url, await token('bench-search', { toolSearch: true }))
    const all = await listBytes(full)
    const first = await listBytes(searching)
    let hits = 0
    const misses: string[] = []
    for (const { task, tool } of SEARCH_TASKS) {
      const result = await searching.callTool({ name: SEARCH_TOOL, arguments: { query: task } })
      const found = (result.structuredContent as { tools: Array<{ name: string }> }).tools
      // The right tool by its server's own name: a copy of it on a filler server does the same.
      if (found.some((candidate) => candidate.name.endsWith(`_${tool}`))) hits++
      else misses.push(`${tool} ("${task}")`)
    }
    await full.close()
    await searching.close()
    console.log(`tool search (10 servers, ${all.count} tools)`)
    console.log(
      `  first tools/list  ${first.bytes} bytes with tool search (${first.count} tools) vs ${all.bytes} bytes without  ratio ${(first.bytes / all.bytes).toFixed(4)}x`,
    )
    console.log(
      `  right tool in the first five  ${hits} of ${SEARCH_TASKS.length} tasks (${((100 * hits) / SEARCH_TASKS.length).toFixed(0)} %)`,
    )
    if (misses.length > 0) console.log(`  missed: ${misses.join('; ')}`)
  } finally {
    await daemon.stop()
  }
}
