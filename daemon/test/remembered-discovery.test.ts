import { chmod, readdir, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, countLines, stdioServerPath, tempDir } from './harness.js'
import { LOADED_PROBE_CAPS, LOADED_READY_MS, startInProcess } from './in-process.js'

afterEach(cleanup)

/** A launcher script whose era is read from a file, so the server can change behind a fixed config. */
async function switchableServer(dir: string, era: string): Promise<string> {
  const script = `${dir}/server.sh`
  await writeFile(
    script,
    `#!/bin/sh\nexec "${process.execPath}" "${stdioServerPath}" --era "$(cat "${dir}/era")" --spawn-log "${dir}/spawns"\n`,
  )
  await chmod(script, 0o755)
  await writeFile(`${dir}/era`, era)
  return script
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
})
