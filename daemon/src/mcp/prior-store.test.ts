import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LEGACY_VERDICT_MS, PriorStore } from './prior-store.js'

describe('PriorStore', () => {
  it('remembers a legacy verdict for a day, and a modern one until it is replaced', async () => {
    let now = 1_000_000
    const store = new PriorStore(await mkdtemp(join(tmpdir(), 'ferry-priors-')), () => now)
    expect(await store.isLegacy('a')).toBe(false)
    await store.setLegacy('a')
    expect(await store.isLegacy('a')).toBe(true)
    expect(await store.get('a')).toBeUndefined()
    now += LEGACY_VERDICT_MS
    expect(await store.isLegacy('a')).toBe(false)

    await store.set('a', { supportedVersions: ['2026-07-28'] } as never)
    expect(await store.isLegacy('a')).toBe(false)
    expect(await store.get('a')).toEqual({ supportedVersions: ['2026-07-28'] })
    await store.forget('a')
    expect(await store.get('a')).toBeUndefined()
  })
})
