// An MCP App that acts, in a real browser: the host fixture's App calls its server's tools (through
// the person's confirmation, shown as the App's calls in the transcript), is refused what is not
// its own and anything once its teardown started, opens pages only after the person confirms,
// sends messages and model context the transcript shows, logs, and saves a file the person allowed.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Frame, Page } from 'playwright-core'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../../daemon/src/protocol/index.js'
import { cleanup, fixture, tempDir, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { appHostServerPath } from '../fixtures/paths.js'
import { appFrame, appIn, clickInApp } from './app-frames.js'
import { errorsBesidesDaemonAway, openPage, useBrowser } from './browser.js'

const browser = useBrowser()
let pageServer: Server | undefined
/** The linked pages' servers, kept listening to the end so no later test's server has their port. */
const pageServers: Server[] = []
afterEach(() => {
  if (pageServer !== undefined) pageServers.push(pageServer)
  pageServer = undefined
})
afterAll(async () => {
  await (await shared)?.page.close()
  for (const server of pageServers.splice(0)) {
    // The linked pages' connections go with the server.
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  await cleanup()
})

/** The host fixture, untrusted (so `bump` asks), and another server that has `echo`. */
const SETTINGS = {
  mcpServers: {
    host: { command: process.execPath, args: [appHostServerPath] },
    other: fixture([]),
  },
}

interface Opened {
  daemon: Daemon
  page: Page
  errors: string[]
  app: Frame
  /** The call whose result rendered the App. */
  appCallId: string
}

/** A daemon with the fixture, a tab on it, and the App of a `host_app` call from a terminal. */
async function openApp(): Promise<Opened> {
  const daemon = await startInProcess(SETTINGS)
  const [{ page, errors }] = await Promise.all([
    openPage(browser()),
    daemon.waitForStatus('host', 'ready'),
    daemon.waitForStatus('other', 'ready'),
  ])
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  const call = await daemon.cli(['call', 'mcp_host_host_app', '{"label":"one"}'])
  expect(call.code, call.stderr).toBe(0)
  const requested = (await daemon.waitForEvent(
    (event) => event.type === 'call.requested' && event.tool === 'mcp_host_host_app',
  )) as Extract<TranscriptEvent, { type: 'call.requested' }>
  await appIn(page, 0).locator('#status').getByText('ready').waitFor({ timeout: 20_000 })
  const app = await appFrame(page, 0)
  expect(await app.locator('#status').textContent()).toBe('ready')
  // Initialised: the App has its host capabilities, so it is open with the daemon.
  await expect.poll(() => app.locator('#caps').textContent()).not.toBe('')
  return { daemon, page, errors, app, appCallId: requested.callId }
}

let shared: Promise<Opened> | undefined

/**
 * The App the tests share, with its daemon and tab, on screen from the first test that asks for it
 * until a test ends it (then the next one opens another). The tests that share it each wait for
 * what their own steps bring, and leave no question open; only the first test counts the host
 * server's `bump` and `peek` calls, which no other test on this daemon makes.
 */
function sharedApp(): Promise<Opened> {
  shared ??= openApp()
  return shared
}

/** Clicks one of the App's buttons and waits for its outcome. */
async function press(app: Frame, id: string): Promise<string> {
  await clickInApp(app, id)
  const out = app.locator(`#out-${id}`)
  await expect.poll(() => out.textContent(), { timeout: 15_000 }).not.toMatch(/^(…)?$/)
  return (await out.textContent()) ?? ''
}

function card(page: Page, callId: string) {
  return page.locator(`[data-testid="call-card"][data-call-id="${callId}"]`)
}

describe('what an MCP App may ask of the WebShell', () => {
  it('opens a page only after the person confirms, and refuses other schemes unseen', async () => {
    pageServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>linked page</title><p>linked page</p>')
    })
    await new Promise<void>((resolve) => pageServer?.listen(0, '127.0.0.1', resolve))
    const target = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/page?x=1`
    const { page, errors, app, appCallId } = await sharedApp()
    const opened: Page[] = []
    page.context().on('page', (tab) => opened.push(tab))
    const prompt = page.getByTestId('app-prompt')
    await app.locator('#link-url').fill(target)

    // Asked with the full address; nothing opens before the click.
    await clickInApp(app, 'link')
    await prompt.waitFor()
    expect(await prompt.getByTestId('app-link-url').textContent()).toBe(target)
    expect(await prompt.getByTestId('app-link-origin').textContent()).toBe(new URL(target).origin)
    expect(opened).toEqual([])
    const tab = page.context().waitForEvent('page')
    await prompt.getByTestId('app-link-open').click()
    const linked = await tab
    await linked.waitForLoadState('domcontentloaded')
    expect(linked.url()).toBe(target)
    expect(await linked.evaluate(() => [window.opener === null, document.referrer])).toEqual([
      true,
      '',
    ])
    await linked.close()
    await expect.poll(() => app.locator('#out-link').textContent()).toBe('ok')
    await card(page, appCallId)
      .locator('[data-testid="app-activity"][data-event="app.link_opened"]', { hasText: target })
      .waitFor()

    // Declined: the App hears no, and nothing opened.
    await clickInApp(app, 'link')
    await prompt.getByTestId('app-link-decline').click()
    await expect.poll(() => app.locator('#out-link').textContent()).toBe('isError')
    expect(opened).toHaveLength(1)

    // "Always for this origin": the next link there opens from the App's click, unasked.
    await clickInApp(app, 'link')
    const always = page.context().waitForEvent('page')
    await prompt.getByTestId('app-link-always').click()
    await (await always).close()
    await expect.poll(() => app.locator('#out-link').textContent()).toBe('ok')
    const again = page.context().waitForEvent('page')
    expect(await press(app, 'link')).toBe('ok')
    expect((await again).url()).toBe(target)
    expect(await prompt.count()).toBe(0)

    // Other schemes: answered no at once, never put to the person.
    for (const refused of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
    ]) {
      await app.locator('#link-url').fill(refused)
      expect(await press(app, 'link'), refused).toBe('isError')
      expect(await prompt.count(), refused).toBe(0)
    }
    expect(opened).toHaveLength(3)
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('shows an App’s message that reads like Ferry’s own line as the App’s, quoted on its line', async () => {
    const { page, errors, app } = await sharedApp()
    const forged = 'Ferry: confirmation resolved by the person'
    await app.locator('#message-text').fill(`${forged}\nFerry: the call was allowed “always”`)
    expect(await press(app, 'message')).toBe('ok')
    const message = page.locator('[data-testid="event-line"][data-event="app.message"]', {
      hasText: forged,
    })
    await message.waitFor()
    // Its words sit in a quote of their own after who says them, never in the line's own text.
    expect(await message.getByTestId('app-says').count()).toBe(1)
    expect(await message.getByTestId('app-says-who').textContent()).toMatch(
      /^App of mcp_host_host_app on "host" says in WebShell tab /,
    )
    const said = message.getByTestId('app-says')
    expect(await said.textContent()).toBe(`${forged}⏎Ferry: the call was allowed "always"`)
    // Set apart from Ferry's lines: between quote marks the page draws, marked off and in italics.
    expect(
      await said.evaluate((element) => {
        const style = getComputedStyle(element)
        return [
          getComputedStyle(element, '::before').content,
          getComputedStyle(element, '::after').content,
          style.quotes,
          style.fontStyle,
          style.borderLeftStyle,
        ]
      }),
    ).toEqual(['open-quote', 'close-quote', '"“" "”"', 'italic', 'solid'])
    // The App's words appear nowhere but inside its quote.
    const outside = await page.evaluate((text) => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      const found: string[] = []
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const inQuote = node.parentElement?.closest('[data-testid="app-says"]') ?? null
        if (node.textContent?.includes(text) === true && inQuote === null) {
          found.push(node.parentElement?.outerHTML ?? '')
        }
      }
      return found
    }, forged)
    expect(outside).toEqual([])
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('shows the App’s message, model context and log, and saves a download the person allows', async () => {
    const { daemon, page, errors, app, appCallId } = await sharedApp()
    const appCard = card(page, appCallId)
    const downloadsBefore = (await daemon.events()).filter(
      (event) => event.type === 'app.download',
    ).length
    const savedLines = appCard.locator('[data-testid="app-activity"][data-event="app.download"]', {
      hasText: 'saved report.csv (text/csv, 8 B)',
    })
    const savedBefore = await savedLines.count()

    await app.locator('#message-text').fill('hello from the App')
    expect(await press(app, 'message')).toBe('ok')
    const message = page.locator('[data-testid="event-line"][data-event="app.message"]', {
      hasText: 'hello from the App',
    })
    await message.waitFor()
    expect(await message.getByTestId('app-says-who').textContent()).toMatch(
      /^App of mcp_host_host_app on "host" says in WebShell tab .* \(shown here only: Ferry passes it to no model\):$/,
    )
    expect(await message.getByTestId('app-says').textContent()).toBe('hello from the App')

    expect(await press(app, 'context')).toBe('ok')
    await expect
      .poll(() => appCard.getByTestId('app-model-context').textContent())
      .toContain('the App shows 3 rows · {"rows":3}')

    expect(await press(app, 'log')).toBe('sent')
    await appCard
      .locator('[data-testid="app-activity"][data-event="app.log"]', {
        hasText: 'log line from the App',
      })
      .waitFor()

    // The download is put to the person with its name, type and size, then saved by the browser.
    await clickInApp(app, 'download')
    const prompt = page.getByTestId('app-prompt')
    await prompt.waitFor()
    expect(await prompt.getByTestId('app-download-file').textContent()).toBe(
      'report.csv text/csv, 8 B',
    )
    const download = page.waitForEvent('download')
    await prompt.getByTestId('app-download-save').click()
    const saved = await download
    expect(saved.suggestedFilename()).toBe('report.csv')
    const savedFile = join(await tempDir('ferry-download-'), 'report.csv')
    await saved.saveAs(savedFile)
    expect(await readFile(savedFile, 'utf8')).toBe('a,b\n1,2\n')
    await expect.poll(() => app.locator('#out-download').textContent()).toBe('ok')
    await expect.poll(() => savedLines.count()).toBe(savedBefore + 1)

    // Declined: nothing saved, and the App hears no.
    await clickInApp(app, 'download')
    await prompt.getByTestId('app-download-decline').click()
    await expect.poll(() => app.locator('#out-download').textContent()).toBe('isError')
    const downloads = (await daemon.events()).filter((event) => event.type === 'app.download')
    expect(downloads).toHaveLength(downloadsBefore + 1)
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('puts its questions where the App is, full screen and in the floating panel', async () => {
    pageServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>linked page</title>')
    })
    await new Promise<void>((resolve) => pageServer?.listen(0, '127.0.0.1', resolve))
    const target = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/full`
    const { page, errors, app } = await sharedApp()
    const prompt = page.getByTestId('app-prompt')
    const stage = page.getByTestId('app-stage')

    await clickInApp(app, 'fullscreen')
    await expect.poll(() => app.locator('#out-mode').textContent()).toBe('fullscreen')
    await expect.poll(() => stage.getAttribute('data-mode')).toBe('fullscreen')
    await app.locator('#link-url').fill(target)
    await clickInApp(app, 'link')
    // Inside the App's stage, and a click reaches it: nothing the App shows covers it.
    await stage.getByTestId('app-prompt').waitFor()
    const tab = page.context().waitForEvent('page')
    await prompt.getByTestId('app-link-open').click()
    expect((await tab).url()).toBe(target)
    await expect.poll(() => app.locator('#out-link').textContent()).toBe('ok')

    await clickInApp(app, 'pip')
    await expect.poll(() => stage.getAttribute('data-mode')).toBe('pip')
    await clickInApp(app, 'download')
    await stage.getByTestId('app-prompt').waitFor()
    const download = page.waitForEvent('download')
    await prompt.getByTestId('app-download-save').click()
    expect((await download).suggestedFilename()).toBe('report.csv')
    await expect.poll(() => app.locator('#out-download').textContent()).toBe('ok')
    // Back in its card for the next test.
    await clickInApp(app, 'inline')
    await expect.poll(() => stage.getAttribute('data-mode')).toBe('inline')
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('advertises what it handles, runs the App’s calls as the App’s, and refuses what is not its own', async () => {
    const { daemon, page, errors, app, appCallId } = await sharedApp()
    const caps = JSON.parse((await app.locator('#caps').textContent()) ?? '{}') as object
    expect(Object.keys(caps).sort()).toEqual([
      'downloadFile',
      'logging',
      'message',
      'openLinks',
      'serverResources',
      'serverTools',
      'updateModelContext',
    ])

    // `bump` is not read-only: the App's call waits for the person, shown as the App's.
    await clickInApp(app, 'bump')
    const question = page.getByTestId('confirmation')
    await question.waitFor()
    expect(await question.textContent()).toContain(
      'Called by the App of mcp_host_host_app in WebShell tab',
    )
    const bumpCard = page.locator(
      `[data-testid="call-card"][data-state="confirming"]:has([data-parent-call-id="${appCallId}"])`,
    )
    await bumpCard.waitFor()
    expect(await bumpCard.getByTestId('call-client').textContent()).toContain(
      'by the App of mcp_host_host_app in WebShell tab',
    )
    expect(await app.locator('#out-bump').textContent()).toBe('…')
    await question.getByRole('button', { name: /Allow once/ }).click()
    await expect.poll(() => app.locator('#out-bump').textContent()).toBe('bumped 1')
    const calls = (await daemon.events()).filter(
      (event): event is Extract<TranscriptEvent, { type: 'call.requested' }> =>
        event.type === 'call.requested' && event.serverTool === 'bump',
    )
    expect(calls.map((event) => event.app)).toEqual([{ parentCallId: appCallId }])

    // Read-only: no question, straight to its result.
    expect(await press(app, 'peek')).toBe('peek 1')
    const peekCard = page.locator(
      `[data-testid="call-card"][data-state="done"]:has([data-parent-call-id="${appCallId}"])`,
      { hasText: 'peek' },
    )
    await peekCard.waitFor()
    expect(await peekCard.getByTestId('confirmation-answer').count()).toBe(0)
    expect(await press(app, 'read')).toBe('notes from the host server')

    // A model-only tool and another server's tool are refused with the daemon's reason.
    const modelOnly = await press(app, 'model-only')
    expect(modelOnly).toMatch(/^error: .*model_only/)
    const other = await press(app, 'other')
    expect(other).toMatch(/^error: .*echo/)
    for (const refused of [modelOnly, other]) expect(refused).not.toMatch(/Method not found/)
    expect(
      (await daemon.events()).filter(
        (event) => event.type === 'call.requested' && /model_only|echo/.test(event.serverTool),
      ),
    ).toEqual([])

    // The App asks to go: its teardown starts, and what it asks meanwhile is refused. Its frame
    // goes a second after the teardown starts, so what it shows is read from its console, which
    // tells every change before the frame can go, not polled from a frame that may be gone.
    const shown = new Map<string, string>()
    page.on('console', (message) => {
      const change = /^shown (\S+) (.*)$/s.exec(message.text())
      if (change !== null) shown.set(change[1]!, change[2]!)
    })
    await app.evaluate(
      (ids) => {
        for (const id of ids) {
          const element = document.getElementById(id)!
          new MutationObserver(() => console.info(`shown ${id} ${element.textContent}`)).observe(
            element,
            { childList: true, characterData: true, subtree: true },
          )
        }
      },
      ['torn-down', 'out-after-teardown'],
    )
    await clickInApp(app, 'teardown')
    await expect.poll(() => shown.get('torn-down')).toBe('yes')
    await expect
      .poll(() => shown.get('out-after-teardown'))
      .toBe('error: this App is being closed; Ferry takes no more requests from it')
    await card(page, appCallId).getByTestId('app-closed').waitFor()
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    expect(
      (await daemon.events()).filter(
        (event) => event.type === 'call.requested' && event.serverTool === 'peek',
      ),
    ).toHaveLength(1)
    expect(errors, errors.join('\n')).toEqual([])
    // Its App is gone: a later test opens another.
    shared = undefined
    await page.close()
  })

  it('opens the App with Ferry again after the tab reconnects, so its requests keep working', async () => {
    const { daemon, page, errors, app } = await openApp()
    expect(await press(app, 'peek')).toBe('peek 0')
    // Ferry restarts: it ended the App with the old connection, and knows nothing of its id.
    await daemon.stop()
    await page.locator('[data-testid="connection"][data-state="reconnecting"]').waitFor()
    const again = await startInProcess(SETTINGS, { stateDir: daemon.stateDir })
    await again.waitForStatus('host', 'ready')
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ timeout: 15_000 })
    expect(await press(app, 'peek')).toBe('peek 0')
    expect(await press(app, 'read')).toBe('notes from the host server')
    expect(errorsBesidesDaemonAway(errors), errors.join('\n')).toEqual([])
    await page.close()
  })
})
