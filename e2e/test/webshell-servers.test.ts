// The servers panel in a real browser: a failed server shows its error and stderr tail, and the
// reconnect button brings it back once the fault is fixed.

import { afterEach, describe, expect, it } from 'vitest'
import { brokenUntilFixed, cleanup, startDaemon } from '../../daemon/test/harness.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

describe('the servers panel', () => {
  it('shows a failed server with its error and stderr tail, and reconnects it once fixed', async () => {
    const server = await brokenUntilFixed()
    const daemon = await startDaemon({ mcpServers: { later: { command: server.command } } })
    await daemon.waitForStatus('later', 'failed')

    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    const row = page.getByTestId('server-later')
    await row.waitFor()
    expect(await row.getAttribute('data-status')).toBe('failed')
    expect(await row.getByTestId('server-error').textContent()).toContain('exited with code 4')
    await row.getByRole('button', { name: 'Show stderr' }).click()
    await row.getByTestId('stderr').waitFor()
    expect(await row.getByTestId('stderr').textContent()).toContain('missing configuration file')
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 0/1 ready')

    await server.fix()
    await row.getByRole('button', { name: 'Reconnect' }).click()
    await page.locator('[data-testid="server-later"][data-status="ready"]').waitFor()
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
    expect(await page.getByTestId('tool').count()).toBe(6)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
