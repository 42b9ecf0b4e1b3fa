import { chmod, readdir, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolInfo } from '../src/protocol/index.js'
import { cleanup, countLines, stdioServerPath, tempDir, type Daemon } from './harness.js'
import { LOADED_PROBE_CAPS, LOADED_READY_MS, startInProcess } from './in-process.js'

afterEach(cleanup)

/**
 * A launcher script whose era and further arguments are read from files, so the server can change
 * behind a fixed config.
 */
async function switchableServer(dir: string, era: string, more = ''): Promise<string> {
  const script = `${dir}/server.sh`
  await writeFile(
    script,
    `#!/bin/sh\nexec "${process.execPath}" "${stdioServerPath}" --era "$(cat "${dir}/era")" $(cat "${dir}/more") --spawn-log "${dir}/spawns"\n`,
  )
  await chmod(script, 0o755)
  await writeFile(`${dir}/era`, era)
  await writeFile(`${dir}/more`, more)
  return script
}

/** What `GET /api/tools` says of the echo tool's running as a task. */
async function taskSupport(daemon: Daemon): Promise<ToolInfo['taskSupport'] | undefined> {
  const tools = (await (await daemon.api('/tools')).json()) as ToolInfo[]
  return tools.find((tool) => tool.name === 'mcp_grown_echo')?.taskSupport
}

describe('remembered discovery results', () => {
  it('re-probes when a remembered modern verdict no longer holds, and forgets the stale verdict', async () => {
    const dir = await tempDir()
    const settings = {
      mcpServers: {
        shifty: { command: await switchableServer(dir, 'modern'), versionNegotiation: 'auto' },
      },
    }
    // Spawns are counted: every probe must fit its sibling's start, also on a loaded machine.
    const first = await startInProcess(settings, { probeCaps: LOADED_PROBE_CAPS })
    expect(await first.waitForStatus('shifty', 'ready', LOADED_READY_MS)).toMatchObject({
      era: 'modern',
    })
    await first.stop()
    expect(await readdir(`${first.stateDir}/discovery`)).toHaveLength(1)
    expect(await countLines(`${dir}/spawns`)).toBe(2)

    await writeFile(`${dir}/era`, 'legacy')
    const second = await startInProcess(settings, {
      stateDir: first.stateDir,
      probeCaps: LOADED_PROBE_CAPS,
    })
    expect(await second.waitForStatus('shifty', 'ready', LOADED_READY_MS)).toMatchObject({
      era: 'legacy',
    })
    // One spawn for the rejected prior, then the probe sibling and the session process.
    expect(await countLines(`${dir}/spawns`)).toBe(5)
    expect((await second.cli(['call', 'mcp_shifty_echo', '{"text":"downgraded"}'])).stdout).toBe(
      'downgraded\n',
    )
    expect(await readdir(`${first.stateDir}/discovery`)).toHaveLength(0)
  })

  it('sees what a server updated behind the same settings declares now, though a discovery result was remembered', async () => {
    const dir = await tempDir()
    const settings = {
      mcpServers: {
        grown: { command: await switchableServer(dir, 'modern'), versionNegotiation: 'auto' },
      },
    }
    const first = await startInProcess(settings, { probeCaps: LOADED_PROBE_CAPS })
    await first.waitForStatus('grown', 'ready', LOADED_READY_MS)
    expect(await taskSupport(first)).toBeNull()
    await first.stop()

    // The new version declares the Tasks extension: its tools may run as tasks.
    await writeFile(`${dir}/more`, '--tasks-extension')
    const second = await startInProcess(settings, {
      stateDir: first.stateDir,
      probeCaps: LOADED_PROBE_CAPS,
    })
    await second.waitForStatus('grown', 'ready', LOADED_READY_MS)
    expect(await taskSupport(second)).toBe('optional')
    // The connect with the remembered result, then the probe sibling and the session process.
    expect(await countLines(`${dir}/spawns`)).toBe(5)

    // Unchanged, the remembered result holds: one spawn.
    await second.stop()
    const third = await startInProcess(settings, {
      stateDir: first.stateDir,
      probeCaps: LOADED_PROBE_CAPS,
    })
    await third.waitForStatus('grown', 'ready', LOADED_READY_MS)
    expect(await countLines(`${dir}/spawns`)).toBe(6)
  })
})
