// Listing a server's tools, prompts, resources and resource templates in either era. Modern sessions use the SDK's
// typed, cache-aware list methods; legacy sessions walk pages with raw requests, because some
// servers answer methods they never declared. Only the tools listing gates readiness.

import type {
  Client,
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client'
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client'

/** A server whose cursor never converges stops here. */
export const LEGACY_PAGE_CAP = 100
/**
 * How long a listing the server never declared may take. Some legacy servers ignore methods
 * they did not declare instead of answering -32601; they must not cost more than this.
 */
export const UNDECLARED_LIST_BOUND_MS = 2000
const METHOD_NOT_FOUND = -32601

export interface Discovered {
  tools: Tool[]
  prompts: Prompt[]
  resources: Resource[]
  resourceTemplates: ResourceTemplate[]
}

export type CacheMode = 'use' | 'refresh'

/** The listings that fill in after the server is ready. */
export type SideList = 'prompts' | 'resources' | 'resourceTemplates'

type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list'
const itemKey = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
}
const sideMethod = {
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
} as const
/** The capability a listing belongs to: templates are part of `resources`. */
const sideCapability = {
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
} as const

interface RawListOptions {
  /** An undeclared method answered with -32601 is an empty list, not an error. */
  optional: boolean
  /** The whole walk, every page included, ends by then (ms since the epoch). */
  deadline?: number
}

async function rawListAll<T>(
  client: Client,
  method: ListMethod,
  options: RawListOptions,
): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  for (let page = 0; page < LEGACY_PAGE_CAP; page++) {
    let result: Record<string, unknown>
    try {
      const timeout =
        options.deadline === undefined
          ? {}
          : { timeout: Math.max(1, options.deadline - Date.now()) }
      result = (await client.request(
        { method, params: cursor === undefined ? {} : { cursor } },
        timeout,
      )) as Record<string, unknown>
    } catch (error) {
      if (options.optional && error instanceof ProtocolError && error.code === METHOD_NOT_FOUND) {
        return []
      }
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
  return rawListAll<Tool>(client, 'tools/list', { optional: true })
}

/**
 * Lists prompts, resources or resource templates. A declared list has `declaredBoundMs`; an
 * undeclared one is asked only of legacy servers, within `UNDECLARED_LIST_BOUND_MS`. Throws on a
 * timeout or a failure, for the caller to log; an undeclared list the server refuses with -32601
 * is empty. Templates are asked only of a server that declared resources, and many of those have
 * none: -32601 for them is an empty list too.
 */
export async function listSide(
  client: Client,
  list: SideList,
  mode: CacheMode,
  declaredBoundMs: number,
): Promise<Prompt[] | Resource[] | ResourceTemplate[]> {
  const declared = client.getServerCapabilities()?.[sideCapability[list]] !== undefined
  if (list === 'resourceTemplates' && !declared) return []
  const boundMs = declared ? declaredBoundMs : Math.min(UNDECLARED_LIST_BOUND_MS, declaredBoundMs)
  try {
    return await listWithin(client, list, mode, declared, boundMs)
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      const what = declared ? 'declared' : 'not declared'
      throw new Error(`no answer within ${boundMs} ms (${list} ${what})`, { cause: error })
    }
    throw error
  }
}

async function listWithin(
  client: Client,
  list: SideList,
  mode: CacheMode,
  declared: boolean,
  boundMs: number,
): Promise<Prompt[] | Resource[] | ResourceTemplate[]> {
  if (client.getProtocolEra() === 'modern') {
    if (!declared) return []
    const options = { cacheMode: mode, timeout: boundMs }
    if (list === 'prompts') return (await client.listPrompts(undefined, options)).prompts
    if (list === 'resources') return (await client.listResources(undefined, options)).resources
    try {
      return (await client.listResourceTemplates(undefined, options)).resourceTemplates
    } catch (error) {
      if (error instanceof ProtocolError && error.code === METHOD_NOT_FOUND) return []
      throw error
    }
  }
  return rawListAll<Prompt | Resource | ResourceTemplate>(client, sideMethod[list], {
    optional: !declared || list === 'resourceTemplates',
    deadline: Date.now() + boundMs,
  })
}
