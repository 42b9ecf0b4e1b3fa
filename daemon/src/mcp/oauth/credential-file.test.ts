import { mkdtemp, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CredentialFile, credentialFileName } from './credential-file.js'

describe('CredentialFile', () => {
  it('keeps tokens per issuer in a private file, and never reads them back for another URL', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'ferry-oauth-')), 'oauth')
    const first = new CredentialFile(dir, 'notes', 'https://a.example/mcp')
    await first.saveTokens({ access_token: 'at-1', token_type: 'Bearer' }, 'https://as.example')
    expect(await first.tokens(undefined)).toMatchObject({ access_token: 'at-1' })
    const file = join(dir, 'notes.json')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ url: 'https://a.example/mcp' })

    // The same server name with another URL: nothing of the old sign-in is handed out.
    const moved = new CredentialFile(dir, 'notes', 'https://b.example/mcp')
    expect(await moved.tokens(undefined)).toBeUndefined()
    expect(await moved.holdsAny()).toBe(false)

    const again = new CredentialFile(dir, 'notes', 'https://a.example/mcp')
    expect(await again.tokens('https://as.example')).toMatchObject({ access_token: 'at-1' })
    await again.remove()
    expect(await new CredentialFile(dir, 'notes', 'https://a.example/mcp').holdsAny()).toBe(false)
  })

  it('names each server’s file so no name can leave the directory', () => {
    expect(credentialFileName('notes')).toBe('notes.json')
    expect(credentialFileName('../x')).toBe('%2E%2E%2Fx.json')
    expect(credentialFileName('a/b')).toBe('a%2Fb.json')
  })
})
