// One remote server's OAuth credentials in the state directory (`oauth/<server>.json`, 0600):
// client registrations and tokens keyed by the authorization server's issuer, the latest issuer,
// and the discovery results that must survive the browser round trip. Bound to the server's URL:
// what was stored for another URL is never read back, so a changed `url` never receives tokens
// meant for the old one. Writes are whole-file and one at a time.

import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client'
import { writePrivateFile } from '../../fs/private-file.js'

interface Stored {
  url: string
  clients: Record<string, StoredOAuthClientInformation>
  tokens: Record<string, StoredOAuthTokens>
  /** The issuer whose tokens were saved last: the ones each request carries. */
  latest: string | null
  discovery: OAuthDiscoveryState | null
}

/** Issuer key for what the SDK saves without naming its authorization server. */
const NO_ISSUER = ''

function empty(url: string): Stored {
  return { url, clients: {}, tokens: {}, latest: null, discovery: null }
}

/** A file name for any server name: names may hold characters a file name cannot. */
export function credentialFileName(server: string): string {
  return `${encodeURIComponent(server).replace(/\./g, '%2E')}.json`
}

export class CredentialFile {
  private stored: Stored
  private loaded: Promise<void> | undefined
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly dir: string,
    private readonly server: string,
    private readonly url: string,
  ) {
    this.stored = empty(url)
  }

  private get path(): string {
    return join(this.dir, credentialFileName(this.server))
  }

  private load(): Promise<void> {
    this.loaded ??= readFile(this.path, 'utf8').then(
      (text) => {
        const parsed = JSON.parse(text) as Partial<Stored>
        if (parsed.url !== this.url) return
        this.stored = { ...empty(this.url), ...parsed, url: this.url }
      },
      () => {},
    )
    return this.loaded
  }

  async client(issuer: string | undefined): Promise<StoredOAuthClientInformation | undefined> {
    await this.load()
    return this.stored.clients[issuer ?? this.stored.latest ?? NO_ISSUER]
  }

  async saveClient(info: StoredOAuthClientInformation, issuer: string | undefined): Promise<void> {
    await this.change((stored) => {
      stored.clients[issuer ?? info.issuer ?? NO_ISSUER] = info
    })
  }

  /** With an issuer, that server's tokens; without, the latest saved (what requests carry). */
  async tokens(issuer: string | undefined): Promise<StoredOAuthTokens | undefined> {
    await this.load()
    return this.stored.tokens[issuer ?? this.stored.latest ?? NO_ISSUER]
  }

  async saveTokens(tokens: StoredOAuthTokens, issuer: string | undefined): Promise<void> {
    await this.change((stored) => {
      const key = issuer ?? tokens.issuer ?? NO_ISSUER
      stored.tokens[key] = tokens
      stored.latest = key
    })
  }

  async discovery(): Promise<OAuthDiscoveryState | undefined> {
    await this.load()
    return this.stored.discovery ?? undefined
  }

  async saveDiscovery(state: OAuthDiscoveryState | null): Promise<void> {
    await this.change((stored) => {
      stored.discovery = state
    })
  }

  async forget(what: 'all' | 'client' | 'tokens' | 'discovery'): Promise<void> {
    await this.change((stored) => {
      if (what === 'all' || what === 'client') stored.clients = {}
      if (what === 'all' || what === 'tokens') {
        stored.tokens = {}
        stored.latest = null
      }
      if (what === 'all' || what === 'discovery') stored.discovery = null
    })
  }

  /** True when anything is stored: a registration, tokens or discovery results. */
  async holdsAny(): Promise<boolean> {
    await this.load()
    const { clients, tokens, discovery } = this.stored
    return Object.keys(clients).length > 0 || Object.keys(tokens).length > 0 || discovery !== null
  }

  /** Deletes the file and everything in it. */
  async remove(): Promise<void> {
    await this.load()
    this.stored = empty(this.url)
    this.writing = this.writing.then(() => rm(this.path, { force: true }))
    await this.writing
  }

  private async change(edit: (stored: Stored) => void): Promise<void> {
    await this.load()
    edit(this.stored)
    const text = JSON.stringify(this.stored)
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        // Inside the state directory, which the daemon checked and made private at start.
        await mkdir(this.dir, { recursive: true, mode: 0o700 })
        await writePrivateFile(this.path, text)
      })
    await this.writing
  }
}
