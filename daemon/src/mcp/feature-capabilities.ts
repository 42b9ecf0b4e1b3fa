// What Ferry declares it can do for a server, in both eras: answer elicitation (form and URL mode)
// and sampling through the person, and tell the server its roots (unless its settings say
// `"roots": false`). Roots are outside the connection fingerprint: a change is announced instead.

import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ClientCapabilities, ProtocolEra, Root } from '@modelcontextprotocol/client'
import type { ServerConfig } from '../config/types.js'

/** The capabilities for server requests and roots (a fresh object each time). */
export function featureCapabilities(config: ServerConfig): ClientCapabilities {
  return {
    elicitation: { form: {}, url: {} },
    sampling: {},
    ...(config.roots === false ? {} : { roots: { listChanged: true } }),
  }
}

/**
 * The roots a server is told of from the settings, or undefined when they are not declared to it;
 * none for `"roots": "client"`, whose roots come from the calling gateway client.
 */
export function rootsOf(config: ServerConfig): Root[] | undefined {
  if (config.roots === false) return undefined
  if (config.roots === 'client') return []
  return config.roots.map((path) => ({
    uri: pathToFileURL(path).href,
    name: basename(path) || path,
  }))
}

export function sameRoots(a: Root[] | undefined, b: Root[] | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * What Ferry does not declare to a server on a connection of `era`, which a server may require
 * before it lists a tool; in the words `ferry tools` shows.
 */
export function undeclaredTo(config: ServerConfig, era: ProtocolEra | null): string[] {
  const missing: string[] = []
  if (config.roots === false) {
    missing.push('roots (no workspace is known and its settings name none, or say "roots": false)')
  }
  if (era === 'modern') {
    missing.push(
      'the Tasks extension (io.modelcontextprotocol/tasks): on a 2026-07-28 connection Ferry cannot take task results',
    )
  }
  return missing
}
