// Token revocation on logout (RFC 7009), where the authorization server's metadata names a
// `revocation_endpoint`: the refresh token first (which ends its access tokens at most servers),
// then the access token. The SDK has no revocation helper; this is the host's part.

import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client'
import type { CredentialFile } from './credential-file.js'

/** True when the server was asked to revoke every stored token and refused none. */
export async function revokeTokens(
  provider: OAuthClientProvider,
  credentials: CredentialFile,
  fetchFn: FetchLike = fetch,
): Promise<boolean> {
  const discovery = await credentials.discovery()
  const metadata = discovery?.authorizationServerMetadata as
    | { revocation_endpoint?: unknown; issuer?: string }
    | undefined
  const endpoint = metadata?.revocation_endpoint
  const tokens = await credentials.tokens(undefined)
  if (typeof endpoint !== 'string' || tokens === undefined) return false
  const client = await provider.clientInformation(
    metadata?.issuer === undefined ? undefined : { issuer: metadata.issuer },
  )
  if (client === undefined) return false
  const revoke = async (token: string, hint: string): Promise<boolean> => {
    const body = new URLSearchParams({ token, token_type_hint: hint })
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' })
    if (client.client_secret === undefined) body.set('client_id', client.client_id)
    else {
      const basic = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`
      headers.set('authorization', `Basic ${Buffer.from(basic).toString('base64')}`)
    }
    const response = await fetchFn(endpoint, { method: 'POST', headers, body: body.toString() })
    await response.body?.cancel()
    return response.ok
  }
  const results = []
  if (tokens.refresh_token !== undefined) {
    results.push(await revoke(tokens.refresh_token, 'refresh_token'))
  }
  results.push(await revoke(tokens.access_token, 'access_token'))
  return results.every(Boolean)
}
