// Where the daemon package's files are on disk, found from this module wherever it runs: as
// TypeScript source (a daemon inside a test's process), compiled by tsc (`dist/…`), or bundled
// (`dist/bundle/…`). Programs started by path are always the compiled ones.

import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGE_NAME = '@ferry/daemon'

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }
      if (name === PACKAGE_NAME) return dir
    }
    if (dirname(dir) === dir) throw new Error(`no ${PACKAGE_NAME} package above ${start}`)
  }
}

/** The daemon package's folder (`daemon/`). */
export const daemonRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)))

export const packageManifestPath = join(daemonRoot, 'package.json')
/** The command-line entry, which `ferry start`, the login service and host configs run. */
export const ferryBinPath = join(daemonRoot, 'bin', 'ferry.js')
/** The demo server of the built-in demo settings. */
export const demoServerPath = join(daemonRoot, 'dist', 'demo', 'demo-server.js')
/** The WebShell's built files, served at `/`. */
export const webshellDistDir = join(daemonRoot, '..', 'webshell', 'dist')
/** The sandbox proxy page, served on the Apps origin. */
export const sandboxProxyFile = join(daemonRoot, '..', 'sandbox-proxy', 'sandbox-proxy.html')
