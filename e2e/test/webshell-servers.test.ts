// The servers panel in a real browser: a failed server shows its error and stderr tail, and the
// reconnect button brings it back once the fault is fixed.

import { chmod, writeFile } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, startDaemon, stdioServerPath, tempDir } from '../../daemon/test/harness.js'
import { launchBrowser, openPage } from './browser.js'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(cleanup)

describe('the servers panel', () => {
  it('shows a failed server with its error and stderr tail, and reconnects it once fixed', async () => {
    const dir = await tempDir()
    const script = `${dir}/server.sh`
    await writeFile(
      script,
      `#!/bin/sh\n[ -f "${dir}/fixed" ] || { echo "missing configuration file ${dir}/fixed" >&2; exit 4; }\nexec "${process.execPath}" "${stdioServerPath}"\n`,
    )
    await chmod(script, 0o755)
    const daemon = await startDaemon({ mcpServers: { later: { command: script } } })
    await daemon.waitForStatus('later', 'failed')

    const { page, errors } = await openPage(browser)
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    const row = page.getByTestId('server-later')
    await row.waitFor()
    expect(await row.getAttribute('data-status')).toBe('failed')
    expect(await row.getByTestId('server-error').textContent()).toContain('exited with code 4')
    await row.getByRole('button', { name: 'Show stderr' }).click()
    await row.getByTestId('stderr').waitFor()
    expect(await row.getByTestId('stderr').textContent()).toContain('missing configuration file')
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 0/1 ready')

    await writeFile(`${dir}/fixed`, '')
    await row.getByRole('button', { name: 'Reconnect' }).click()
    await page.locator('[data-testid="server-later"][data-status="ready"]').waitFor()
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
    expect(await page.getByTestId('tool').count()).toBe(6)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
