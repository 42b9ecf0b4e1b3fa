import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PIXEL_PNG } from '../../e2e/fixtures/offerings-data.js'
import type { ResourceReadResponse, TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { offeringsFixture, post, resourcesOf, startOfferingsDaemon } from './offerings-rig.js'

let daemon: Daemon

beforeAll(async () => {
  daemon = await startOfferingsDaemon()
})

afterAll(cleanup)

function lastOf(events: TranscriptEvent[], type: TranscriptEvent['type']): TranscriptEvent {
  const found = events.filter((event) => event.type === type).at(-1)
  if (found === undefined) throw new Error(`no ${type} event`)
  return found
}

async function read(server: string, uri: string): Promise<Response> {
  return post(daemon, '/resources/read', { server, uri })
}

describe('resources', () => {
  it('lists every resource and template of three pages, in both eras', async () => {
    for (const era of ['modern', 'legacy']) {
      const listed = await resourcesOf(daemon, era)
      expect(listed.resources.map((r) => r.uri)).toHaveLength(11)
      expect(listed.resources.map((r) => r.uri)).toContain('filler://5')
      expect(listed.templates.map((t) => t.uriTemplate)).toHaveLength(7)
      expect(listed.templates.map((t) => t.uriTemplate)).toContain('filler://t5/{id}')
      expect(listed.resources.find((r) => r.uri === 'blob://pixel')).toEqual({
        server: era,
        uri: 'blob://pixel',
        name: 'pixel',
        title: null,
        description: null,
        mimeType: 'image/png',
        size: null,
      })
      expect(listed.templates[0]).toEqual({
        server: era,
        uriTemplate: 'user://{name}',
        name: 'user',
        title: null,
        description: null,
        mimeType: 'text/plain',
      })
    }
  })

  it("lists server-everything's seven resources and two templates", async () => {
    const listed = await resourcesOf(daemon, 'everything')
    expect(listed.resources).toHaveLength(7)
    expect(listed.templates.map((t) => t.uriTemplate).sort()).toEqual([
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ])
  })

  it('reads text and blobs in both eras and records resource.read with the contents', async () => {
    for (const era of ['modern', 'legacy']) {
      const text = (await (await read(era, 'user://alice')).json()) as ResourceReadResponse
      expect(text.result.contents).toEqual([
        { uri: 'user://alice', mimeType: 'text/plain', text: `user alice (${era})` },
      ])
      const blob = (await (await read(era, 'blob://pixel')).json()) as ResourceReadResponse
      expect(blob.result.contents).toEqual([
        { uri: 'blob://pixel', mimeType: 'image/png', blob: PIXEL_PNG },
      ])
      expect(lastOf(await daemon.events(), 'resource.read')).toMatchObject({
        server: era,
        uri: 'blob://pixel',
        result: { kept: true, body: { contents: blob.result.contents } },
      })
    }
  })

  it('reads a template instance of server-everything', async () => {
    const response = await read('everything', 'demo://resource/dynamic/text/3')
    const body = (await response.json()) as ResourceReadResponse
    expect(body.result.contents[0]?.text).toMatch(/^Resource 3: This is a plaintext resource/)
    const blob = (await (
      await read('everything', 'demo://resource/dynamic/blob/2')
    ).json()) as ResourceReadResponse
    expect(typeof blob.result.contents[0]?.blob).toBe('string')
  })

  it('refuses a read over 1 MiB with the size, and records the failure', async () => {
    const response = await read('legacy', 'big://huge')
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      error: {
        code: 'payload_too_large',
        message:
          'resource big://huge of server "legacy" is 1.0 MiB, over the 1.0 MiB limit for reads',
      },
    })
    expect(lastOf(await daemon.events(), 'resource.read_failed')).toMatchObject({
      server: 'legacy',
      uri: 'big://huge',
      error: { code: 'payload_too_large' },
    })
  })

  it('ends a read the server does not answer at its appResourceTimeoutMs', async () => {
    const slow = await startInProcess({
      mcpServers: { slow: { ...offeringsFixture('legacy'), appResourceTimeoutMs: 300 } },
    })
    await slow.waitForStatus('slow', 'ready')
    const response = await post(slow, '/resources/read', { server: 'slow', uri: 'slow://hang' })
    expect(response.status).toBe(504)
    expect(await response.json()).toEqual({
      error: {
        code: 'timeout',
        message:
          'server "slow" did not answer the read of slow://hang within 300 ms (its appResourceTimeoutMs)',
      },
    })
  })

  it('answers an unknown resource with not_found, and an unknown server too', async () => {
    const missing = await read('modern', 'gone://nope')
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
      'server "modern" has no resource gone://nope',
    )
    const server = await read('nope', 'note://one')
    expect(server.status).toBe(404)
    expect(await server.json()).toEqual({
      error: { code: 'not_found', message: 'no server named "nope"' },
    })
  })

  it('ferry resources prints resources and templates, and --json both lists', async () => {
    const table = await daemon.cli(['resources', '--server', 'legacy'])
    expect(table.code).toBe(0)
    const [resources, templates] = table.stdout.trimEnd().split('\n\n')
    expect(resources?.split('\n')[0]).toMatch(/^URI\s+SERVER\s+TYPE\s+NAME$/)
    expect(resources).toMatch(/^blob:\/\/pixel\s+legacy\s+image\/png\s+pixel$/m)
    expect(templates?.split('\n')[0]).toMatch(/^TEMPLATE\s+SERVER\s+TYPE\s+NAME$/)
    expect(templates).toMatch(/^user:\/\/\{name\}\s+legacy\s+text\/plain\s+user$/m)
    const json = JSON.parse((await daemon.cli(['resources', '--json'])).stdout) as {
      resources: unknown[]
      templates: unknown[]
    }
    expect(json.resources).toHaveLength(7 + 11 + 11)
    expect(json.templates).toHaveLength(2 + 7 + 7)
  })

  it('ferry read prints text, describes a blob, and writes it with --out', async () => {
    const text = await daemon.cli(['read', 'modern', 'note://one'])
    expect(text).toMatchObject({ code: 0, stdout: 'note://one (modern) v0\n' })
    const described = await daemon.cli(['read', 'modern', 'blob://pixel'])
    expect(described.stdout).toBe(
      '[blob blob://pixel: image/png, 70 bytes; use --out FILE to save it]\n',
    )
    const file = join(await tempDir(), 'pixel.png')
    const saved = await daemon.cli(['read', 'legacy', 'blob://pixel', '--out', file])
    expect(saved).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `wrote 70 bytes (image/png) to ${file}\n`,
    })
    expect((await readFile(file)).equals(Buffer.from(PIXEL_PNG, 'base64'))).toBe(true)
    const failed = await daemon.cli(['read', 'legacy', 'big://huge'])
    expect(failed.code).toBe(2)
    expect(failed.stderr).toMatch(/^ferry: resource big:\/\/huge of server "legacy" is 1\.0 MiB/)
  })
})
