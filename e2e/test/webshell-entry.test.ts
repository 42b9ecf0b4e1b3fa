// Getting into the WebShell in a real browser: the token arrives in the URL fragment, moves to
// sessionStorage and leaves the address bar; a reload still works; no token and a wrong token
// each get a clear page.

import { afterEach, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../daemon/test/cli-in-process.js'
import { cleanup, fixture } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

describe('entering the WebShell', () => {
  it('loads from `ferry open --print`, drops the token from the address bar, and survives a reload', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const printed = await daemon.cli(['open', '--print'])
    expect(printed.code).toBe(0)
    const url = printed.stdout.trim()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+$/)
    // Run from elsewhere than the daemon's workspace, it says whose default session opens.
    expect(printed.stderr).toContain(
      `default session of Ferry's workspace ${daemon.stateDir}.workspace`,
    )
    const fromWorkspace = await runCliInProcess(
      ['--state-dir', daemon.stateDir, 'open', '--print'],
      {
        cwd: `${daemon.stateDir}.workspace`,
      },
    )
    expect(fromWorkspace.stdout.trim()).toBe(url)
    expect(fromWorkspace.stderr).toBe('')

    const { page, errors } = await openPage(browser())
    await page.goto(url)
    await page.getByTestId('summary').waitFor()
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
    // The token left the address; the session shown took its place in the query.
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const address = page.url()
    expect(address).toMatch(new RegExp(`^${daemon.info.url}\\?session=[A-Za-z0-9_-]+$`))
    expect(address).not.toContain(daemon.info.token)
    expect(await page.evaluate(() => sessionStorage.getItem('ferry.token'))).toBe(daemon.info.token)
    expect(await page.getByTestId('tool').count()).toBe(6)

    await page.reload()
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    expect(page.url()).toBe(address)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('shows how to get in when the page has no token, and a clear error for a wrong one', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const bare = await openPage(browser())
    await bare.page.goto(daemon.info.url)
    await bare.page.getByTestId('no-token').waitFor()
    expect(await bare.page.getByTestId('no-token').textContent()).toContain('ferry open')
    expect(bare.errors, bare.errors.join('\n')).toEqual([])
    await bare.page.close()

    const wrong = await openPage(browser())
    await wrong.page.goto(`${daemon.info.url}#token=not-the-token`)
    await wrong.page.getByTestId('error').waitFor()
    expect(await wrong.page.getByTestId('error').textContent()).toContain('token was refused')
    // The refused API call is the only console message: the browser logs the 401 itself.
    expect(wrong.errors.every((message) => message.includes('401'))).toBe(true)
    await wrong.page.close()
  })
})
