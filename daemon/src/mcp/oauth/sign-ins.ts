// OAuth sign-in for remote servers, with the SDK's `auth()` doing discovery, registration, PKCE,
// the token exchange and refreshes. `SignIns` is the daemon's one registry (where credentials live,
// the callback URL, the pending sign-ins); `ServerSignIn` is one server's: the scopes its last
// challenge asked for, the step-ups it has had, and starting, finishing and forgetting a sign-in.

import { join } from 'node:path'
import {
  auth,
  extractWWWAuthenticateParams,
  type FetchLike,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client'
import type { OAuthSettings, RemoteServerConfig } from '../../config/types.js'
import { ErrorCode, FerryError, errorMessage } from '../../errors.js'
import type { Log } from '../../log.js'
import { CredentialFile } from './credential-file.js'
import { FerryOAuthProvider, type AuthorizationStart } from './oauth-provider.js'
import { PendingSignIns } from './pending-sign-ins.js'
import { revokeTokens } from './revoke.js'

/** Step-up sign-ins in a row that the server may still refuse for scope before Ferry stops asking. */
export const MAX_STEP_UPS = 2

export const CALLBACK_PATH = '/oauth/callback'

export interface SignInsOptions {
  stateDir: string
  clientName: string
  log: Log
  fetch?: FetchLike
  now?: () => number
}

export class SignIns {
  readonly pending: PendingSignIns
  private callbackUrl: string | undefined
  readonly dir: string

  constructor(readonly options: SignInsOptions) {
    this.dir = join(options.stateDir, 'oauth')
    this.pending = new PendingSignIns(options.now)
  }

  /** The daemon's own callback, once its listener has a port. */
  setCallbackBase(daemonUrl: string): void {
    this.callbackUrl = new URL(CALLBACK_PATH.slice(1), daemonUrl).href
  }

  redirectUrl(settings: OAuthSettings): string {
    const url = settings.redirectUri ?? this.callbackUrl
    if (url === undefined) throw new Error('the daemon has no callback URL yet')
    return url
  }

  forServer(config: RemoteServerConfig): ServerSignIn {
    return new ServerSignIn(config, this)
  }
}

/** What a server's last 401 or 403 asked for. */
interface Challenge {
  scope: string | undefined
  resourceMetadataUrl: URL | undefined
  insufficientScope: boolean
}

export class ServerSignIn {
  readonly credentials: CredentialFile
  private challenge: Challenge | undefined
  /** Step-up sign-ins since the server last accepted a call. */
  private stepUps = 0
  /** The scope the server still refused after the step-ups, once Ferry stopped asking. */
  private gaveUp: string | undefined

  constructor(
    private readonly config: RemoteServerConfig,
    private readonly signIns: SignIns,
  ) {
    this.credentials = new CredentialFile(signIns.dir, config.name, config.url)
  }

  private get name(): string {
    return this.config.name
  }

  private provider(extra: Partial<ConstructorParameters<typeof FerryOAuthProvider>[0]> = {}) {
    return new FerryOAuthProvider({
      settings: this.config.oauth,
      credentials: this.credentials,
      redirectUrl: () => this.signIns.redirectUrl(this.config.oauth),
      clientName: this.signIns.options.clientName,
      ...extra,
    })
  }

  /** The provider a connection's transport uses: tokens, silent refresh, no browser. */
  connectProvider(): OAuthClientProvider {
    return this.provider()
  }

  /** Remembers what a 401 or 403 from the server asked for, for the next sign-in. */
  noteResponse(response: Response): void {
    if (response.status !== 401 && response.status !== 403) return
    const params = extractWWWAuthenticateParams(response)
    if (response.status === 403 && params.error !== 'insufficient_scope') return
    this.challenge = {
      scope: params.scope,
      resourceMetadataUrl: params.resourceMetadataUrl ?? this.challenge?.resourceMetadataUrl,
      insufficientScope: params.error === 'insufficient_scope',
    }
  }

  /** A refusal for scope, as the SDK reported it (whatever the transport). */
  noteScopeRefusal(scope: string | undefined): void {
    this.challenge = {
      scope: scope ?? this.challenge?.scope,
      resourceMetadataUrl: this.challenge?.resourceMetadataUrl,
      insufficientScope: true,
    }
  }

  /** A call was refused for scope: whether a person should sign in again, or Ferry stops asking. */
  refusedForScope(scope: string | undefined): 'sign_in' | 'gave_up' {
    if (this.stepUps >= MAX_STEP_UPS) {
      this.gaveUp = scope ?? ''
      return 'gave_up'
    }
    return 'sign_in'
  }

  /** Why Ferry stopped asking, while it has. */
  get stoppedAsking(): string | undefined {
    if (this.gaveUp === undefined) return undefined
    const scope = this.gaveUp === '' ? '' : ` for scope "${this.gaveUp}"`
    return (
      `the server still refused${scope} after ${MAX_STEP_UPS} sign-ins that asked for it, so ` +
      `Ferry stopped asking; check what the account may do, then run \`ferry logout ${this.name}\` ` +
      `and \`ferry login ${this.name}\``
    )
  }

  /** The server accepted a call: step-ups start counting afresh. */
  accepted(): void {
    this.stepUps = 0
  }

  /** Starts a sign-in a person asked for: the authorization page, with its state recorded. */
  async begin(): Promise<{ authorizationUrl: string; expiresAt: number }> {
    const stopped = this.stoppedAsking
    if (stopped !== undefined)
      throw new FerryError(ErrorCode.Conflict, `"${this.name}": ${stopped}`)
    let started: AuthorizationStart | undefined
    const provider = this.provider({ onAuthorization: (start) => (started = start) })
    const stepUp = this.challenge?.insufficientScope === true
    const granted = stepUp ? (await this.credentials.tokens(undefined))?.scope : undefined
    const scope = unionOfScopes(granted, this.challenge?.scope, this.config.oauth.scopes)
    try {
      await auth(provider, {
        serverUrl: this.config.url,
        ...(scope === undefined ? {} : { scope }),
        ...(this.challenge?.resourceMetadataUrl === undefined
          ? {}
          : { resourceMetadataUrl: this.challenge.resourceMetadataUrl }),
        ...(this.signIns.options.fetch === undefined
          ? {}
          : { fetchFn: this.signIns.options.fetch }),
        forceReauthorization: true,
      })
    } catch (error) {
      throw signInFailure(this.name, 'could not start', error)
    }
    if (started === undefined) {
      throw new FerryError(
        ErrorCode.UpstreamError,
        `"${this.name}": the authorization server gave no page to sign in on`,
      )
    }
    if (stepUp) this.stepUps++
    const pending = this.signIns.pending.add(started.state, this.name, started.verifier)
    this.signIns.options.log({ kind: 'server.sign_in_started', server: this.name, stepUp })
    return { authorizationUrl: started.url.href, expiresAt: pending.expiresAt }
  }

  /** Redeems the code the browser brought back (the SDK checks `iss`); tokens are then stored. */
  async finish(code: string, iss: string | undefined, verifier: string): Promise<void> {
    const provider = this.provider({ verifier })
    try {
      await auth(provider, {
        serverUrl: this.config.url,
        authorizationCode: code,
        ...(iss === undefined ? {} : { iss }),
        ...(this.signIns.options.fetch === undefined
          ? {}
          : { fetchFn: this.signIns.options.fetch }),
      })
    } catch (error) {
      throw signInFailure(this.name, 'could not finish', error)
    }
    this.challenge = undefined
    this.signIns.options.log({ kind: 'server.signed_in', server: this.name })
  }

  /** Forgets the tokens and registration (revoking the tokens where the server offers it). */
  async forget(): Promise<{ forgotten: boolean; revoked: boolean }> {
    const forgotten = await this.credentials.holdsAny()
    const revoked = await revokeTokens(
      this.provider(),
      this.credentials,
      this.signIns.options.fetch,
    ).catch((error: unknown) => {
      this.signIns.options.log({
        kind: 'server.revoke_failed',
        server: this.name,
        error: errorMessage(error),
      })
      return false
    })
    await this.credentials.remove()
    this.signIns.pending.dropServer(this.name)
    this.challenge = undefined
    this.stepUps = 0
    this.gaveUp = undefined
    return { forgotten, revoked }
  }
}

/** Space-separated scopes, each once, in the order first seen; undefined when there are none. */
export function unionOfScopes(
  ...lists: (string | readonly string[] | undefined)[]
): string | undefined {
  const scopes = new Set<string>()
  for (const list of lists) {
    const items = typeof list === 'string' ? list.split(/\s+/) : (list ?? [])
    for (const scope of items) if (scope !== '') scopes.add(scope)
  }
  return scopes.size === 0 ? undefined : [...scopes].join(' ')
}

function signInFailure(server: string, what: string, error: unknown): FerryError {
  // The SDK's OAuth errors carry the authorization server's code and description; no token.
  return new FerryError(
    ErrorCode.UpstreamError,
    `sign-in to "${server}" ${what}: ${errorMessage(error)}`,
    { cause: error },
  )
}
