import { defineConfig } from 'vite'

// The WebShell is served by the daemon from dist/, under a CSP without inline script.
export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
})
