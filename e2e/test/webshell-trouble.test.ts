// When something is wrong outside the tab, in a real browser at a desktop and a phone size: settings
// a reload could not read show in a banner and in the transcript with file:line:column until a
// reload reads them, and while Ferry is not answering the tab says how to start it and comes back
// on its own once it answers.

import { writeFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { errorsBesidesDaemonAway, openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const

/** Whether the element is drawn whole inside the viewport of `size`. */
async function inView(
  page: Page,
  testId: string,
  size: { width: number; height: number },
): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox()
  return (
    box !== null &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= size.width &&
    box.y + box.height <= size.height
  )
}

describe('trouble outside the tab', () => {
  it('shows settings a reload could not read, where and what to do, in a banner and the transcript until a reload reads them', async () => {
    const settings = { mcpServers: { fx: fixture([]) } }
    const daemon = await startInProcess(settings)
    await daemon.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const where = `${daemon.configPath}:3:3`

    for (const [round, size] of SIZES.entries()) {
      await page.setViewportSize(size)
      await writeFile(daemon.configPath, '{\n  "mcpServers": {}\n  "gateway": {}\n}\n')
      const reload = await daemon.cli(['reload'])
      expect(reload.code).toBe(2)
      expect(reload.stderr).toContain(where)

      const banner = page.getByTestId('settings-problem')
      await banner.waitFor()
      expect(await banner.textContent()).toBe(
        `Settings not applied: ${where}: invalid JSON (expected ','). Ferry keeps the settings ` +
          'it read before; fix the file and run `ferry reload`.',
      )
      expect(await banner.getAttribute('role')).toBe('alert')
      await expect.poll(() => inView(page, 'settings-problem', size)).toBe(true)
      const line = page.locator('[data-testid="notice"].notice-error').filter({ hasText: where })
      await line.nth(round).waitFor()

      await daemon.writeSettings(settings)
      expect((await daemon.cli(['reload'])).code).toBe(0)
      await page
        .getByTestId('notice')
        .filter({ hasText: 'The settings read cleanly again.' })
        .nth(round)
        .waitFor()
      await banner.waitFor({ state: 'detached' })
    }
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('says how to start Ferry while it is not answering, and reconnects on its own once it is back', async () => {
    const settings = { mcpServers: { fx: fixture([]) } }
    const first = await startInProcess(settings)
    await first.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.setViewportSize(SIZES[0])
    await page.goto(`${first.info.url}#token=${first.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()

    await first.stop()
    const away = page.getByTestId('daemon-away')
    await away.waitFor()
    expect(await away.textContent()).toBe(
      'Ferry is not answering. If it stopped, start it again with ferry start in a terminal; ' +
        'this tab keeps trying to reconnect and carries on once it answers.',
    )
    expect(await away.locator('code').textContent()).toBe('ferry start')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      // Laid out again for the new size by the page's own observers: waited for, not sampled.
      await expect.poll(() => inView(page, 'daemon-away', size)).toBe(true)
    }

    // Started again on the same state directory, it takes the same port; the tab finds it.
    const second = await startInProcess(settings, { stateDir: first.stateDir })
    expect(second.info.url).toBe(first.info.url)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    await away.waitFor({ state: 'detached' })
    expect(errorsBesidesDaemonAway(errors), errors.join('\n')).toEqual([])
    await page.close()
  })
})
