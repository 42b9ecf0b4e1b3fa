import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { settingsPaths } from './settings-paths.js'

describe('settingsPaths', () => {
  it('puts the user file under ~/.config/ferry unless XDG_CONFIG_HOME is an absolute path', () => {
    const base = { cwd: '/work/p', homeDir: '/home/me' }
    expect(settingsPaths({ ...base, env: {} })).toEqual({
      user: join('/home/me', '.config', 'ferry', 'settings.json'),
      workspace: join('/work/p', '.ferry', 'settings.json'),
      explicit: undefined,
      inputAnswers: join('/home/me', '.config', 'ferry', 'inputs.json'),
    })
    expect(settingsPaths({ ...base, env: { XDG_CONFIG_HOME: '/xdg' } }).user).toBe(
      join('/xdg', 'ferry', 'settings.json'),
    )
    expect(settingsPaths({ ...base, env: { XDG_CONFIG_HOME: 'rel' } }).user).toBe(
      join('/home/me', '.config', 'ferry', 'settings.json'),
    )
  })

  it('prefers --config over FERRY_CONFIG and resolves it against cwd', () => {
    const base = { cwd: '/work/p', homeDir: '/home/me' }
    const env = { FERRY_CONFIG: '/etc/ferry.json' }
    expect(settingsPaths({ ...base, env }).explicit).toBe('/etc/ferry.json')
    expect(settingsPaths({ ...base, env, configFile: 'local.json' }).explicit).toBe(
      join('/work/p', 'local.json'),
    )
  })
})
