// Ferry's version, read from the daemon package's manifest.

import { readFileSync } from 'node:fs'
import { packageManifestPath } from './package-paths.js'

export const version: string = (
  JSON.parse(readFileSync(packageManifestPath, 'utf8')) as {
    version: string
  }
).version
