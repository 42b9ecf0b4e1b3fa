// Servers and helpers for the prompts, resources and subscriptions tests: server-everything (legacy,
// SDK v1) and the offerings fixture in either era, each trusted so their tools run unconfirmed.

import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { offeringsServerPath } from '../../e2e/fixtures/paths.js'
import type { PromptInfo, ResourcesResponse } from '../src/protocol/index.js'
import { waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

const require = createRequire(import.meta.url)

export const everythingPath = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
)

export function everything(): Record<string, unknown> {
  return { command: process.execPath, args: [everythingPath, 'stdio'], trust: true }
}

/** The offerings fixture in `era`; the modern one is reached through `versionNegotiation: auto`. */
export function offeringsFixture(
  era: 'modern' | 'legacy',
  flags: string[] = [],
): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [offeringsServerPath, '--era', era, ...flags],
    trust: true,
    ...(era === 'modern' ? { versionNegotiation: 'auto' } : {}),
  }
}

export async function promptsOf(daemon: Daemon, server?: string): Promise<PromptInfo[]> {
  const query = server === undefined ? '' : `?server=${server}`
  return (await (await daemon.api(`/prompts${query}`)).json()) as PromptInfo[]
}

export async function resourcesOf(daemon: Daemon, server?: string): Promise<ResourcesResponse> {
  const query = server === undefined ? '' : `?server=${server}`
  return (await (await daemon.api(`/resources${query}`)).json()) as ResourcesResponse
}

/** Waits until `server` is ready and its prompts, resources and templates are all listed. */
export async function waitForOfferings(
  daemon: Daemon,
  server: string,
  counts: { prompts: number; resources: number; templates: number },
): Promise<void> {
  await daemon.waitForStatus(server, 'ready', 30_000)
  await waitFor(
    async () => {
      const prompts = await promptsOf(daemon, server)
      const listed = await resourcesOf(daemon, server)
      return (
        prompts.length >= counts.prompts &&
        listed.resources.length >= counts.resources &&
        listed.templates.length >= counts.templates
      )
    },
    20_000,
    `the prompts and resources of ${server}`,
  )
}

export function post(daemon: Daemon, path: string, body: unknown): Promise<Response> {
  return daemon.api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/**
 * A daemon with server-everything and the offerings fixture in both eras (three pages of each
 * list), once every listing is complete.
 */
export async function startOfferingsDaemon(): Promise<Daemon> {
  const daemon = await startInProcess({
    mcpServers: {
      everything: everything(),
      modern: offeringsFixture('modern', ['--offer-pages', '3']),
      legacy: offeringsFixture('legacy', ['--offer-pages', '3']),
    },
  })
  await Promise.all([
    waitForOfferings(daemon, 'everything', { prompts: 4, resources: 7, templates: 2 }),
    waitForOfferings(daemon, 'modern', { prompts: 8, resources: 11, templates: 7 }),
    waitForOfferings(daemon, 'legacy', { prompts: 8, resources: 11, templates: 7 }),
  ])
  return daemon
}
