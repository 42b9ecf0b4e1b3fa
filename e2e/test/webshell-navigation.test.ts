// Finding one's way in a real browser: an empty transcript says how to make the first call;
// the servers column narrows the panes to one server and back; every pane tab opens its pane
// (with a loading line while a lazily loaded pane's code arrives), and arrow keys move along the
// tabs. No tab leads nowhere.

import type { Route } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

const PANE_LABELS = ['Tools', 'Prompts', 'Resources', 'Logs', 'Protocol', 'Grants']

describe('finding one’s way in the WebShell', () => {
  it('tells a new user how to make the first call, until there is one', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const session = new URL(page.url()).searchParams.get('session') ?? ''

    // The default session holds the servers' status lines, but no call: the guidance shows.
    const empty = page.getByTestId('empty-transcript')
    await empty.waitFor({ timeout: 10_000 })
    const text = (await empty.textContent()) ?? ''
    expect(text).toContain('No calls in this session yet.')
    expect(text).toContain('Pick a tool in the Tools pane (6 to choose from)')
    expect(text).toContain('press Call')
    expect(text).toContain('Enter allows it once')
    expect(text).toContain(`ferry attach ${session}`)
    expect(text).toContain(`--session ${session}`)

    // It follows what it says: the first call from the tab replaces it.
    const echo = page.locator('[data-tool="mcp_fx_echo"]')
    await echo.locator('.tool-toggle').click()
    await echo.getByLabel('text', { exact: false }).fill('first')
    await echo.getByRole('button', { name: 'Call' }).click()
    await page.getByTestId('result').filter({ hasText: 'first' }).waitFor()
    expect(await empty.count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('says there is nothing to call yet when Ferry has no servers', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.getByTestId('empty-no-servers').waitFor()
    expect(await page.getByTestId('empty-transcript').textContent()).toContain(
      'No events in this session yet.',
    )
    expect(await page.getByTestId('empty-no-servers').textContent()).toContain('mcpServers')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('narrows the panes to one server and back, and opens every pane it lists', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]), other: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    await daemon.waitForStatus('other', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const count = page.getByTestId('tools-count')
    await expect.poll(() => count.textContent()).toBe('12 tools')

    // One server: its tools only, and the pane says whose they are.
    await page
      .getByTestId('server-other')
      .getByRole('button', { name: 'other', exact: true })
      .click()
    await expect.poll(() => count.textContent()).toBe('6 tools')
    expect(await page.getByTestId('pane-scope').textContent()).toBe('other')
    const shown = await page
      .getByTestId('tool')
      .evaluateAll((tools) => tools.map((tool) => tool.getAttribute('data-tool') ?? ''))
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.every((name) => name.startsWith('mcp_other_'))).toBe(true)
    expect(
      await page
        .getByTestId('server-other')
        .getByRole('button', { name: 'other', exact: true })
        .getAttribute('aria-pressed'),
    ).toBe('true')
    // Picking it again, or "All servers", shows every server again.
    await page.getByTestId('server-all').click()
    await expect.poll(() => count.textContent()).toBe('12 tools')
    expect(await page.getByTestId('pane-scope').textContent()).toBe('all servers')

    // With one server picked, code loaded after the first screen waits at a gate, so a lazily
    // loaded pane shows its loading line until the gate opens.
    await page.getByTestId('server-fx').getByRole('button', { name: 'fx', exact: true }).click()
    await expect.poll(() => count.textContent()).toBe('6 tools')
    const held: Route[] = []
    // Closed while a tab is opened; open while a pane's code loads, since a pane's chunk may ask
    // for chunks of its own after it arrives.
    let gated = true
    await page.route(/\/assets\/.+\.js$/, (route) =>
      gated ? void held.push(route) : void route.continue(),
    )
    const tabs = page.getByRole('tab')
    const labels = await tabs.allTextContents()
    expect(labels[0]).toBe('Tools')
    expect(labels.every((label) => PANE_LABELS.includes(label))).toBe(true)
    for (const label of [...labels.slice(1), labels[0] ?? 'Tools']) {
      await page.getByRole('tab', { name: label }).click()
      expect(await page.getByRole('tab', { name: label }).getAttribute('aria-selected')).toBe(
        'true',
      )
      const pane = page.getByTestId('pane')
      const loading = pane.getByTestId('pane-loading')
      if ((await loading.count()) > 0) {
        expect(await loading.textContent()).toBe(`Loading ${label}…`)
        await expect.poll(() => held.length).toBeGreaterThan(0)
        gated = false
        for (const route of held.splice(0)) await route.continue()
        await loading.waitFor({ state: 'detached' })
        gated = true
      }
      expect(await pane.getByTestId('pane-failure').count()).toBe(0)
      expect(await pane.getAttribute('data-pane')).toBe(label.toLowerCase())
    }
    // Code asked for while no loading line was up yet (or by work the tab does when idle) is let
    // through too: a request left at the gate would hold whatever waits on it for good.
    await page.unroute(/\/assets\/.+\.js$/)
    for (const route of held.splice(0)) await route.continue()

    // With every server picked, a pane made for one server at a time asks which, and shows it.
    await page.getByTestId('server-all').click()
    for (const label of labels) {
      await page.getByRole('tab', { name: label }).click()
      const pick = page.getByTestId('pane').getByTestId('pick-server')
      if ((await pick.count()) === 0) continue
      await pick.getByRole('button', { name: 'other', exact: true }).click()
      expect(await page.getByTestId('pane-scope').textContent()).toBe('other')
      expect(await page.getByTestId('pane').getAttribute('data-pane')).toBe(label.toLowerCase())
      await page.getByTestId('server-all').click()
    }
    await page.getByRole('tab', { name: 'Tools' }).click()

    // Arrow keys walk the tabs and wrap around; the Tools pane comes back as it was.
    await page.getByRole('tab', { name: 'Tools' }).focus()
    for (let step = 0; step < labels.length; step++) await page.keyboard.press('ArrowRight')
    expect(await page.getByTestId('pane').getAttribute('data-pane')).toBe('tools')
    await page.keyboard.press('End')
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe(labels.at(-1))
    await page.keyboard.press('Home')
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Tools')
    await expect.poll(() => count.textContent()).toBe('12 tools')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
