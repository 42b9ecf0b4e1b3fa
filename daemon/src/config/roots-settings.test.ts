import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadSettings } from './load-settings.js'
import type { ServerEntry, Settings } from './types.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * Loads `settings` from `<dir>/conf/settings.json`, with `<dir>/work` as the workspace: named on
 * purpose (`--workspace`) unless `workspace` says it is only the start directory, or one that has
 * a `.ferry/settings.json` of its own.
 */
async function load(
  settings: unknown,
  env: Record<string, string> = {},
  workspace: 'declared' | 'start directory' | 'has settings' = 'declared',
) {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-roots-'))
  dirs.push(dir)
  await mkdir(join(dir, 'conf'))
  await mkdir(join(dir, 'work', '.ferry'), { recursive: true })
  if (workspace === 'has settings') {
    await writeFile(join(dir, 'work', '.ferry', 'settings.json'), '{"mcpServers":{}}')
  }
  const file = join(dir, 'conf', 'settings.json')
  await writeFile(file, JSON.stringify(settings))
  const loaded = await loadSettings({
    cwd: join(dir, 'work'),
    configFile: file,
    env,
    homeDir: dir,
    workspaceDeclared: workspace === 'declared',
  })
  return { settings: loaded, dir }
}

function entry(settings: Settings, name: string): ServerEntry {
  const found = settings.servers.find((server) => server.name === name)
  if (found === undefined) throw new Error(`no server ${name}`)
  return found
}

describe('the roots setting', () => {
  it('gives every server the workspace unless it lists roots (relative to its file) or says false', async () => {
    const { settings, dir } = await load(
      {
        mcpServers: {
          plain: { command: 'a' },
          listed: { command: 'a', roots: ['data', '/srv/shared', '$PROJECTS/x'] },
          none: { command: 'a', roots: false },
          remote: { url: 'https://a.example', roots: ['../work'] },
        },
      },
      { PROJECTS: '/home/p' },
    )
    const roots = (name: string) => {
      const found = entry(settings, name)
      return found.state === 'enabled' ? found.config.roots : found
    }
    expect(roots('plain')).toEqual([join(dir, 'work')])
    expect(roots('listed')).toEqual([join(dir, 'conf', 'data'), '/srv/shared', '/home/p/x'])
    expect(roots('none')).toBe(false)
    expect(roots('remote')).toEqual([join(dir, 'work')])
  })

  it('declares no roots to a server that names none when the workspace is only where Ferry started', async () => {
    const servers = {
      mcpServers: { plain: { command: 'a' }, listed: { command: 'a', roots: ['data'] } },
    }
    const roots = (settings: Settings, name: string) => {
      const found = entry(settings, name)
      return found.state === 'enabled' ? found.config.roots : found
    }
    const started = await load(servers, {}, 'start directory')
    expect(roots(started.settings, 'plain')).toBe(false)
    expect(roots(started.settings, 'listed')).toEqual([join(started.dir, 'conf', 'data')])
    // A workspace with settings of its own is one Ferry knows.
    const known = await load(servers, {}, 'has settings')
    expect(roots(known.settings, 'plain')).toEqual([join(known.dir, 'work')])
  })

  it('refuses anything but a list of paths or false, saying what to write', async () => {
    const { settings } = await load({
      mcpServers: {
        word: { command: 'a', roots: 'here' },
        yes: { command: 'a', roots: true },
        numbers: { command: 'a', roots: [1] },
        unset: { command: 'a', roots: ['$NOPE'] },
      },
    })
    const error = (name: string) => {
      const found = entry(settings, name)
      return found.state === 'invalid' ? found.error : found.state
    }
    const expected =
      'expected a list of directory paths, false to declare no roots, or "client" for the calling gateway client\'s'
    expect(error('word')).toBe(`mcpServers.word.roots: ${expected}`)
    expect(error('yes')).toBe(`mcpServers.yes.roots: ${expected}`)
    expect(error('numbers')).toMatch(/^mcpServers\.numbers\.roots/)
    expect(error('unset')).toBe('mcpServers.unset.roots[0]: environment variable NOPE is not set')
  })

  it('keeps the connection fingerprint when the roots change, but not when they are turned off', async () => {
    const fingerprintOf = async (roots: unknown) => {
      const { settings } = await load({
        mcpServers: { s: { command: 'a', ...(roots === undefined ? {} : { roots }) } },
      })
      const found = entry(settings, 's')
      if (found.state !== 'enabled') throw new Error(found.state)
      return found.fingerprint
    }
    const plain = await fingerprintOf(undefined)
    expect(await fingerprintOf(['/one'])).toBe(plain)
    expect(await fingerprintOf(['/one', '/two'])).toBe(plain)
    expect(await fingerprintOf(false)).not.toBe(plain)
  })
})
