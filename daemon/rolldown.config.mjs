// The command-line program as a few files instead of hundreds: a process that starts (`ferry`,
// its daemon) spends less of its start loading modules one by one. The entry is tsc's output, so
// the program bundled is the program compiled; each lazily loaded command stays its own chunk.
import { defineConfig } from 'rolldown'

export default defineConfig({
  input: { ferry: 'dist/cli/main.js' },
  platform: 'node',
  // jsonc-parser's `main` is a UMD build whose requires a bundle cannot follow; its `module` is ESM.
  resolve: { mainFields: ['module', 'main'] },
  // Ink loads it only under DEV=true, to talk to React's devtools; it is not installed.
  external: ['react-devtools-core'],
  output: { dir: 'dist/bundle', format: 'esm', sourcemap: true },
})
