// Ferry's side of the SDK's OAuth client (`OAuthClientProvider`): where credentials live (the
// server's CredentialFile), which client identity to use (pre-registered settings, else a client ID
// metadata document, else dynamic registration, which the SDK chooses between), and what
// "redirect to the authorization page" means. The daemon never opens a browser: while connecting,
// a needed sign-in only marks the server; a person's `ferry login` (or the WebShell's Sign in) asks
// for the page, which this provider hands to `onAuthorization` with the flow's state and verifier.

import { randomBytes } from 'node:crypto'
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client'
import type { OAuthSettings } from '../../config/types.js'
import type { CredentialFile } from './credential-file.js'

/** One authorization request, as the page the person is sent to names it. */
export interface AuthorizationStart {
  url: URL
  state: string
  verifier: string
}

export interface ProviderOptions {
  settings: OAuthSettings
  credentials: CredentialFile
  /** The callback the authorization server sends the browser back to. */
  redirectUrl: () => string
  clientName: string
  /** Set for a sign-in a person started: receives the page to open. */
  onAuthorization?: (start: AuthorizationStart) => void
  /** Set when finishing a sign-in: the verifier its authorization request was made with. */
  verifier?: string
}

export class FerryOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined
  readonly clientMetadataUrl: string | undefined

  constructor(private readonly options: ProviderOptions) {
    this.verifier = options.verifier
    this.clientMetadataUrl = options.settings.clientMetadataUrl
  }

  get redirectUrl(): string {
    return this.options.redirectUrl()
  }

  get clientMetadata(): OAuthClientMetadata {
    const { clientSecret, scopes } = this.options.settings
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A registered client without a secret is a public one; a pre-registered secret is sent
      // the way the authorization server's metadata says.
      ...(clientSecret === undefined && this.options.settings.clientId === undefined
        ? { token_endpoint_auth_method: 'none' }
        : {}),
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    }
  }

  state(): string {
    return randomBytes(32).toString('base64url')
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const { clientId, clientSecret } = this.options.settings
    if (clientId !== undefined) {
      return {
        client_id: clientId,
        ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
      }
    }
    const stored = await this.options.credentials.client(ctx?.issuer)
    // A registration made for another callback (the daemon's port changed) is made again.
    const uris = (stored as { redirect_uris?: unknown } | undefined)?.redirect_uris
    if (Array.isArray(uris) && !uris.includes(this.redirectUrl)) return undefined
    return stored
  }

  async saveClientInformation(
    info: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    await this.options.credentials.saveClient(info, ctx?.issuer)
  }

  tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    return this.options.credentials.tokens(ctx?.issuer)
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    await this.options.credentials.saveTokens(tokens, ctx?.issuer)
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no sign-in is pending for this server')
    return this.verifier
  }

  redirectToAuthorization(url: URL): void {
    const state = url.searchParams.get('state')
    if (this.options.onAuthorization === undefined || state === null) return
    if (this.verifier === undefined) return
    this.options.onAuthorization({ url, state, verifier: this.verifier })
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const { authorizationUrl, tokenUrl } = this.options.settings
    if (authorizationUrl !== undefined && tokenUrl !== undefined) {
      return configuredEndpoints(
        authorizationUrl,
        tokenUrl,
        await this.options.credentials.discovery(),
      )
    }
    return this.options.credentials.discovery()
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.options.credentials.saveDiscovery(state)
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined
      return
    }
    // Pre-registered credentials live in the settings; only what Ferry stored is forgotten.
    await this.options.credentials.forget(scope)
  }
}

/**
 * Endpoints given in settings stand in for the authorization server's metadata; the resource
 * metadata found by discovery, if any, is kept.
 */
function configuredEndpoints(
  authorizationUrl: string,
  tokenUrl: string,
  discovered: OAuthDiscoveryState | undefined,
): OAuthDiscoveryState {
  const issuer = new URL(authorizationUrl).origin
  return {
    ...discovered,
    authorizationServerUrl: issuer,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: authorizationUrl,
      token_endpoint: tokenUrl,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    },
  }
}
