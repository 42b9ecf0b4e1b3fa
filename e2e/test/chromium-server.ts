// One Debian chromium for the whole run, started before the first test file: each browser test
// file connects to it and gets contexts of its own, instead of starting a browser per file.

import { chromium } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { CHROMIUM, CHROMIUM_ARGS } from './browser.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's chromium takes connections (playwright's protocol over WebSocket). */
    chromiumEndpoint: string
  }
}

export default async function startChromium(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}
