// Each fixture program (fixtures/paths.ts, FIXTURE_PROGRAMS) bundled from tsc's output into
// dist/bundle, with the modules they share in common chunks.
import { defineConfig } from 'rolldown'
import { FIXTURE_PROGRAMS } from './dist/fixtures/paths.js'

export default defineConfig({
  input: Object.fromEntries(FIXTURE_PROGRAMS.map((name) => [name, `dist/fixtures/${name}.js`])),
  platform: 'node',
  output: { dir: 'dist/bundle', format: 'esm', sourcemap: true },
})
