// Listing a server's tools, prompts and resources in either era. Modern sessions use the SDK's
// typed, cache-aware list methods; legacy sessions walk pages with raw requests, because some
// servers answer methods they never declared.

import type { Client, Prompt, Resource, Tool } from '@modelcontextprotocol/client'
import { ProtocolError } from '@modelcontextprotocol/client'

/** A server whose cursor never converges stops here. */
export const LEGACY_PAGE_CAP = 100
const METHOD_NOT_FOUND = -32601

export interface Discovered {
  tools: Tool[]
  prompts: Prompt[]
  resources: Resource[]
}

export type CacheMode = 'use' | 'refresh'

type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list'
const itemKey = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources' }

async function rawListAll<T>(client: Client, method: ListMethod, optional: boolean): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  for (let page = 0; page < LEGACY_PAGE_CAP; page++) {
    let result: Record<string, unknown>
    try {
      result = (await client.request({
        method,
        params: cursor === undefined ? {} : { cursor },
      })) as Record<string, unknown>
    } catch (error) {
      if (optional && error instanceof ProtocolError && error.code === METHOD_NOT_FOUND) return []
      throw error
    }
    const pageItems = result[itemKey[method]]
    if (Array.isArray(pageItems)) items.push(...(pageItems as T[]))
    const next = result.nextCursor
    if (typeof next !== 'string' || next === '' || next === cursor) return items
    cursor = next
  }
  throw new Error(`${method} did not finish within ${LEGACY_PAGE_CAP} pages`)
}

export async function listTools(client: Client, mode: CacheMode): Promise<Tool[]> {
  if (client.getProtocolEra() === 'modern') {
    if (client.getServerCapabilities()?.tools === undefined) return []
    return (await client.listTools(undefined, { cacheMode: mode })).tools
  }
  return rawListAll<Tool>(client, 'tools/list', true)
}

export async function discoverAll(client: Client, mode: CacheMode): Promise<Discovered> {
  const tools = await listTools(client, mode)
  if (client.getProtocolEra() === 'modern') {
    const caps = client.getServerCapabilities() ?? {}
    const [prompts, resources] = await Promise.all([
      caps.prompts ? client.listPrompts(undefined, { cacheMode: mode }).then((r) => r.prompts) : [],
      caps.resources
        ? client.listResources(undefined, { cacheMode: mode }).then((r) => r.resources)
        : [],
    ])
    return { tools, prompts, resources }
  }
  const [prompts, resources] = await Promise.all([
    rawListAll<Prompt>(client, 'prompts/list', true).catch(() => []),
    rawListAll<Resource>(client, 'resources/list', true).catch(() => []),
  ])
  return { tools, prompts, resources }
}
