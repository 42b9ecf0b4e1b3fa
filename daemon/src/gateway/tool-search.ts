// Tool search, for a gateway client that should not read every tool's schema: its tool list is
// Ferry's search tool and the tools pinned in settings; a search ranks the client's own tools
// (MiniSearch's BM25+) by their names, titles, descriptions and parameter names, and answers the
// best ones with their schemas. A found tool is called by its name, like any listed tool.

import type { CallToolResult, Tool } from '@modelcontextprotocol/server'
import MiniSearch from 'minisearch'
import { matchesAny } from '../config/matches-any.js'
import type { ClientView } from './client-view.js'

export const SEARCH_TOOL = 'ferry_search_tools'
export const DEFAULT_SEARCH_LIMIT = 5
export const MAX_SEARCH_LIMIT = 20

export const searchToolDefinition: Tool = {
  name: SEARCH_TOOL,
  title: 'Search tools',
  description:
    'Finds the tools that fit what you want to do among every tool this gateway serves, and returns each with its input schema. Describe the task in plain words; then call a tool it found by its name.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'what you want to do, in plain words' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        description: `how many tools to return (default ${DEFAULT_SEARCH_LIMIT})`,
      },
    },
    required: ['query'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
}

/** The tools a searching client lists: the search tool, then the pinned ones it may call. */
export function searchingList(view: ClientView, pinned: string[]): Tool[] {
  const kept =
    pinned.length === 0
      ? []
      : view
          .entries()
          .filter((entry) => matchesAny(entry.name, pinned))
          .map((entry) => ({ ...entry.definition, name: view.nameOf(entry) }))
  return [searchToolDefinition, ...kept]
}

/** Words too common to tell tools apart. */
const STOP_WORDS = new Set(
  (
    'a an and any are as at be by can do does for from get give has have how i if in into is it its ' +
    'me my of on or so some that the their them then there these this to was what when which while ' +
    'who will with you your'
  ).split(' '),
)

/** A term as indexed and searched: lower case, a common word dropped, a plural or verb ending cut. */
function stem(term: string): string | null {
  const word = term.toLowerCase()
  if (STOP_WORDS.has(word)) return null
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3)
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

/** `read_file`, `readFile` and `read-file` alike become "read file". */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .toLowerCase()
}

/** The client's tools that best fit `query`, best first. */
export function searchTools(tools: readonly Tool[], query: string, limit: number): Tool[] {
  const index = new MiniSearch<{
    id: number
    name: string
    title: string
    text: string
    params: string
  }>({
    fields: ['name', 'title', 'text', 'params'],
    processTerm: stem,
    searchOptions: { boost: { name: 2, title: 2, params: 0.5 }, prefix: true, fuzzy: 0.2 },
  })
  index.addAll(
    tools.map((tool, id) => ({
      id,
      name: words(tool.name),
      title: tool.title ?? '',
      text: tool.description ?? '',
      params: Object.keys(tool.inputSchema.properties ?? {})
        .map(words)
        .join(' '),
    })),
  )
  return index
    .search(query)
    .slice(0, limit)
    .flatMap((hit) => {
      const tool = tools[hit.id as number]
      return tool === undefined ? [] : [tool]
    })
}

/** Answers one call of the search tool: the found tools, with their schemas, as text and data. */
export function searchResult(view: ClientView, args: Record<string, unknown>): CallToolResult {
  const query = typeof args.query === 'string' ? args.query.trim() : ''
  if (query === '') {
    return {
      isError: true,
      content: [{ type: 'text', text: 'say what you want to do in `query`, in plain words' }],
    }
  }
  const asked = typeof args.limit === 'number' ? Math.floor(args.limit) : DEFAULT_SEARCH_LIMIT
  const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, asked))
  const found = searchTools(view.tools(), query, limit).map((tool) => ({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  }))
  const text =
    found.length === 0
      ? `No tool fits "${query}". Try other words.`
      : `${found.length} ${found.length === 1 ? 'tool' : 'tools'} for "${query}", best first. Call one by its name with arguments that fit its inputSchema:\n${JSON.stringify(found, null, 2)}`
  return { content: [{ type: 'text', text }], structuredContent: { tools: found } }
}
