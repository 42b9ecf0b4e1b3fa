// Ferry's version, read from the daemon package's manifest.

import { readFileSync } from 'node:fs'

export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version
