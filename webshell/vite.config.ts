import { defineConfig, type Plugin } from 'vite'

// micromark decodes character references through the DOM in its browser build; a worker has no
// DOM, so workers get the package's plain build (what its own `worker` condition names).
const workerEntityDecoder: Plugin = {
  name: 'ferry-worker-entity-decoder',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (source !== 'decode-named-character-reference') return null
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
    if (resolved === null) return null
    return { ...resolved, id: resolved.id.replace(/index\.dom\.js$/, 'index.js') }
  },
}

// The WebShell is served by the daemon from dist/, under a CSP without inline script. Its
// workers are module workers from the same origin (the CSP's script-src 'self').
export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } },
  worker: { format: 'es', plugins: () => [workerEntityDecoder] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
})
