// The Grants pane in a real browser: a person's "always allow this tool" and an agent's "always
// allow this server" both listed with who gave them and whose calls they cover, per session;
// revoking one from the tab, recorded as the tab's doing, after which the tool is asked about
// again; and a revocation made elsewhere leaving the open view without a reload.

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type {
  GrantInfo,
  GrantsResponse,
  StatusResponse,
  TranscriptEvent,
} from '../../daemon/src/protocol/index.js'
import { cleanup, fixture, type Daemon } from '../../daemon/test/harness.js'
import { elicitingClient } from '../../daemon/test/gateway-harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

const json = { 'content-type': 'application/json' }

/** A gateway client of token `secret` that answers every confirmation it is asked with `decision`. */
function agent(daemon: Daemon, secret: string, decision: string) {
  return elicitingClient(daemon, secret, 'legacy', () =>
    Promise.resolve({ action: 'accept', content: { decision } }),
  )
}

async function grants(daemon: Daemon): Promise<GrantInfo[]> {
  return ((await (await daemon.api('/grants')).json()) as GrantsResponse).grants
}

/** A call over REST that waits for a person's answer; resolves with the HTTP status once it ends. */
function restCall(daemon: Daemon, id: string): Promise<number> {
  return daemon
    .api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_fx_slow', arguments: { steps: 0 }, id }),
    })
    .then(async (response) => {
      await response.text()
      return response.status
    })
}

/** The time as the transcript shows it, in this page's locale. */
function shownTime(page: Page, time: string): Promise<string> {
  return page.evaluate((iso) => new Date(iso).toLocaleTimeString(), time)
}

describe('the Grants pane', () => {
  it("lists a person's and an agent's grants with who gave them and whom they cover, revokes one from the tab, and follows revocations made elsewhere", async () => {
    const daemon = await startInProcess({
      mcpServers: { fx: fixture([], { trust: false }) },
    })
    await daemon.waitForStatus('fx', 'ready')
    const { defaultSession } = (await (await daemon.api('/status')).json()) as StatusResponse
    const { page, errors } = await openPage(browser())
    page.setDefaultTimeout(15_000)
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const tab = `WebShell tab ${await page.evaluate(() => sessionStorage.getItem('ferry.tab'))}`

    await page.getByRole('tab', { name: 'Grants' }).click()
    const pane = page.getByTestId('grants-pane')
    await pane.getByTestId('grants-none').waitFor()
    expect(await page.getByTestId('pane-scope').textContent()).toMatch(/^session /)

    // A person's "always allow this tool", given from the tab for a call made over REST.
    const first = restCall(daemon, 'rest-1')
    const ask = page.getByTestId('question-bar').getByTestId('confirmation')
    await ask.waitFor()
    await ask.getByRole('button', { name: 'Always allow this tool' }).click()
    expect(await first).toBe(200)
    const toolRow = pane.locator('[data-testid="grant"][data-scope="tool"]')
    await toolRow.waitFor()
    expect(await toolRow.getAttribute('data-grant-id')).toBe('rest-1')
    expect(await toolRow.getByTestId('grant-allows').textContent()).toBe('Tool mcp_fx_slow on fx')
    expect(await toolRow.getByTestId('grant-given-by').textContent()).toMatch(
      new RegExp(`^${tab} \\(.+\\) a person in the WebShell$`),
    )
    expect(await toolRow.getByTestId('grant-covers').textContent()).toBe(
      'Every caller in this session',
    )
    const [personal] = await grants(daemon)
    expect(await toolRow.getByTestId('grant-since').textContent()).toBe(
      await shownTime(page, personal?.since ?? ''),
    )

    // An agent's "always allow this server", answered in the agent's own client.
    const created = await daemon.cli([
      'gateway',
      'token',
      'create',
      'careful',
      '--confirm-in-client',
    ])
    expect(created.stderr).toContain('Gateway token')
    const careful = await agent(daemon, created.stdout.trim(), 'allow_server')
    // It ran (and failed on purpose), so the agent allowed it: it was not denied.
    const ran = await careful.callTool({ name: 'mcp_fx_fail', arguments: {} })
    expect(ran).toMatchObject({ content: [{ type: 'text', text: 'tool failed on purpose' }] })
    const serverRow = pane.locator('[data-testid="grant"][data-scope="server"]')
    await serverRow.waitFor()
    expect(await serverRow.getByTestId('grant-allows').textContent()).toBe(
      'Every tool of server fx',
    )
    expect(await serverRow.getByTestId('grant-given-by').textContent()).toBe(
      'careful (gateway) an agent, through the gateway',
    )
    expect(await serverRow.getByTestId('grant-covers').textContent()).toBe(
      'Only careful (gateway)’s own calls',
    )
    expect(await pane.getByTestId('grants-count').textContent()).toBe('2 in force')

    // Another session has grants of its own: none; back in the first, both are there again.
    await page.getByRole('button', { name: 'New session' }).click()
    await page.getByLabel('New session name').fill('elsewhere')
    await page.getByRole('button', { name: 'Create' }).click()
    await pane.getByTestId('grants-none').waitFor()
    expect(await page.getByTestId('pane-scope').textContent()).toBe('session elsewhere')
    await page.getByTestId('session-select').selectOption(defaultSession)
    await serverRow.waitFor()
    await toolRow.waitFor()

    // Revoked from the tab (with the keyboard): the row goes, the transcript says the tab did it.
    const revoke = toolRow.getByRole('button', {
      name: 'Revoke the grant for tool mcp_fx_slow of server "fx"',
    })
    await revoke.focus()
    await page.keyboard.press('Enter')
    await toolRow.waitFor({ state: 'detached' })
    const revoked = await daemon.waitForEvent((e) => e.type === 'grant.revoked')
    expect(revoked).toMatchObject({
      grantId: 'rest-1',
      scope: 'tool',
      tool: 'mcp_fx_slow',
      reason: 'the "always allow" for tool mcp_fx_slow was revoked',
      client: { kind: 'webshell' },
    })
    expect(revoked.client?.label).toMatch(new RegExp(`^${tab} \\(`))
    await page
      .getByTestId('notice')
      .filter({ hasText: `was revoked (by ${revoked.client?.label ?? ''})` })
      .waitFor()

    // The tool is asked about again: the agent's grant covers the agent's calls, not this one.
    const second = restCall(daemon, 'rest-2')
    await daemon.waitForEvent((e) => e.type === 'confirmation.requested' && e.callId === 'rest-2')
    await page.locator('[data-testid="confirmation"][data-call-id="rest-2"]').waitFor()
    await ask.getByRole('button', { name: 'Deny' }).click()
    expect(await second).toBe(200)

    // Revoked from a terminal: the agent's row leaves the open view without a reload.
    const cli = await daemon.cli(['grants', 'revoke', '--all'])
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stdout).toContain('Revoked')
    await pane.getByTestId('grants-none').waitFor()
    expect(await serverRow.count()).toBe(0)
    expect(await grants(daemon)).toEqual([])
    const ends = (await daemon.events()).filter(
      (e): e is Extract<TranscriptEvent, { type: 'grant.revoked' }> => e.type === 'grant.revoked',
    )
    expect(ends.map((e) => [e.scope, e.client?.kind])).toEqual([
      ['tool', 'webshell'],
      ['server', 'cli'],
    ])

    await careful.close()
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
