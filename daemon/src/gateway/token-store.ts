// Gateway tokens: one per MCP client, named, each with what it may reach. Only a SHA-256 of each
// token is kept, in `<stateDir>/gateway-tokens.json` (0600); the token itself is shown once, when
// it is created. These tokens open `/mcp` and nothing else; the admin token never opens `/mcp`.

import { hash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { writePrivateFile } from '../fs/private-file.js'
import type { GatewayTokenCreateRequest, GatewayTokenInfo } from '../protocol/index.js'

export const GATEWAY_TOKENS_FILE = 'gateway-tokens.json'

/** Every gateway token starts so, which tells it apart from the admin token at a glance. */
export const GATEWAY_TOKEN_PREFIX = 'fgw_'

export const CLIENT_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/

/** A server glob as `--servers` takes it: a name, or a pattern with `*` and `?`. */
const SERVER_GLOB_PATTERN = /^[A-Za-z0-9._*?-]{1,64}$/

/** Last-use times are written at most this often. */
const LAST_USE_WRITE_MS = 5_000

const recordSchema = z.object({
  name: z.string().regex(CLIENT_NAME_PATTERN),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  servers: z.array(z.string()).min(1),
  unprefixed: z.boolean(),
  session: z.string().nullable(),
  confirmInClient: z.boolean(),
  // Tokens made before the option existed list every tool.
  toolSearch: z.boolean().default(false),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
})

type TokenRecord = z.infer<typeof recordSchema>

const fileSchema = z.object({ tokens: z.array(z.unknown()) })

/** What a request's gateway token grants: the client's name and scope. */
export type GatewayGrant = GatewayTokenInfo

function hashOf(token: string): string {
  return hash('sha256', token, 'hex')
}

function infoOf(record: TokenRecord): GatewayTokenInfo {
  const { hash: _hash, ...info } = record
  return { ...info }
}

export class GatewayTokenStore {
  private readonly path: string
  private readonly byHash = new Map<string, TokenRecord>()
  private writing: Promise<void> = Promise.resolve()
  private lastUseTimer: NodeJS.Timeout | undefined
  private readonly revokeListeners = new Set<(name: string) => Promise<void>>()

  private constructor(stateDir: string) {
    this.path = join(stateDir, GATEWAY_TOKENS_FILE)
  }

  /** Reads the stored tokens; a damaged file or entry grants nothing and is reported in `problems`. */
  static async open(stateDir: string): Promise<{ store: GatewayTokenStore; problems: string[] }> {
    const store = new GatewayTokenStore(stateDir)
    return { store, problems: await store.load() }
  }

  list(): GatewayTokenInfo[] {
    return [...this.byHash.values()]
      .map(infoOf)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  }

  /** Creates a token; the name must be free. Returns the token, which is not kept anywhere. */
  async create(
    request: GatewayTokenCreateRequest,
  ): Promise<{ token: string; info: GatewayTokenInfo }> {
    const name = request.name
    if (!CLIENT_NAME_PATTERN.test(name)) {
      throw new FerryError(
        ErrorCode.BadRequest,
        `client name "${name}" is not allowed: use 1 to 64 letters, digits, ".", "_" or "-"`,
      )
    }
    if (this.find(name) !== undefined) {
      throw new FerryError(
        ErrorCode.Conflict,
        `a gateway token named "${name}" exists; revoke it first with \`ferry gateway token revoke ${name}\``,
      )
    }
    const servers = request.servers ?? ['*']
    if (servers.length === 0 || servers.some((glob) => !SERVER_GLOB_PATTERN.test(glob))) {
      throw new FerryError(
        ErrorCode.BadRequest,
        `--servers takes server names or globs (letters, digits, ".", "_", "-", "*", "?"), comma-separated; got "${servers.join(',')}"`,
      )
    }
    const unprefixed = request.unprefixed === true
    if (unprefixed && (servers.length !== 1 || /[*?]/.test(servers[0] as string))) {
      throw new FerryError(
        ErrorCode.BadRequest,
        '--unprefixed needs a token limited to exactly one server: name it with --servers NAME (no globs)',
      )
    }
    const token = `${GATEWAY_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
    const record: TokenRecord = {
      name,
      hash: hashOf(token),
      servers,
      unprefixed,
      session: request.session ?? null,
      confirmInClient: request.confirmInClient === true,
      toolSearch: request.toolSearch === true,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
    }
    this.byHash.set(record.hash, record)
    await this.save()
    return { token, info: infoOf(record) }
  }

  /**
   * Ends a token at once: its next request gets 401, and the listeners stop what it is doing
   * (its requests, sessions, calls, tasks, questions and grants) before this resolves.
   */
  async revoke(name: string): Promise<void> {
    const record = this.find(name)
    if (record === undefined) {
      throw new FerryError(
        ErrorCode.NotFound,
        `no gateway token named "${name}"; run \`ferry gateway token list\` to see them`,
      )
    }
    this.byHash.delete(record.hash)
    await Promise.all([...this.revokeListeners].map((listener) => listener(name)))
    await this.save()
  }

  /** Told the name of every revoked token. */
  onRevoke(listener: (name: string) => Promise<void>): void {
    this.revokeListeners.add(listener)
  }

  /** The grant of a presented token, or undefined; records the use. */
  verify(presented: string): GatewayGrant | undefined {
    if (!presented.startsWith(GATEWAY_TOKEN_PREFIX)) return undefined
    const record = this.byHash.get(hashOf(presented))
    if (record === undefined) return undefined
    record.lastUsedAt = new Date().toISOString()
    this.lastUseTimer ??= setTimeout(() => {
      this.lastUseTimer = undefined
      void this.save().catch(() => {})
    }, LAST_USE_WRITE_MS).unref()
    return infoOf(record)
  }

  /** Whether the client named so still holds a token (a session outliving its token ends). */
  has(name: string): boolean {
    return this.find(name) !== undefined
  }

  /** Writes pending last-use times. */
  async close(): Promise<void> {
    if (this.lastUseTimer !== undefined) {
      clearTimeout(this.lastUseTimer)
      this.lastUseTimer = undefined
      await this.save().catch(() => {})
    }
    await this.writing
  }

  private find(name: string): TokenRecord | undefined {
    for (const record of this.byHash.values()) if (record.name === name) return record
    return undefined
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify({ tokens: [...this.byHash.values()] }, null, 2)}\n`
    const run = this.writing.then(() => writePrivateFile(this.path, text))
    this.writing = run.catch(() => {})
    return run.catch((error: unknown) => {
      throw new FerryError(
        ErrorCode.Internal,
        `cannot write ${this.path}: ${errorMessage(error)}`,
        { cause: error },
      )
    })
  }

  private async load(): Promise<string[]> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      return [`cannot read ${this.path}: ${errorMessage(error)}; no gateway token is accepted`]
    }
    let parsed: z.infer<typeof fileSchema>
    try {
      parsed = fileSchema.parse(JSON.parse(text))
    } catch {
      return [`${this.path} is damaged; no gateway token is accepted until it is replaced`]
    }
    const problems: string[] = []
    parsed.tokens.forEach((raw, index) => {
      const record = recordSchema.safeParse(raw)
      if (record.success) this.byHash.set(record.data.hash, record.data)
      else problems.push(`${this.path}: entry ${index} is damaged and grants nothing`)
    })
    return problems
  }
}
