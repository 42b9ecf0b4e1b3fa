// The import rules `pnpm lint` checks (see docs/architecture.md, "Layers", which this file reads).
// The daemon's folders are layers, lowest first; a module may import its own layer and those below
// it, never above.
// Neither the daemon nor the WebShell may have an import cycle.

import { readFileSync } from 'node:fs'

/**
 * The daemon's layers, lowest first, as docs/architecture.md lists them under "Layers": one
 * numbered line per layer, naming its folders (or single files) of daemon/src in backticks.
 */
function layersOf(markdown) {
  const section = markdown.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? ''
  const layers = section
    .split('\n')
    .filter((line) => /^\d+\. /.test(line))
    .map((line) => [...line.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]))
  if (layers.length < 2) throw new Error('docs/architecture.md lists no layers under "## Layers"')
  return layers
}

const LAYERS = layersOf(readFileSync(new URL('docs/architecture.md', import.meta.url), 'utf8'))

const pathOf = (names) => `^daemon/src/(${names.join('|')})([./]|$)`

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.join('-')}`,
  comment: `${layer.join(', ')} may not import a layer above it`,
  severity: 'error',
  from: { path: pathOf(layer), pathNot: '\\.test\\.tsx?$' },
  to: { path: pathOf(LAYERS.slice(index + 1).flat()) },
}))

export default {
  forbidden: [
    ...layerRules,
    {
      name: 'no-cycles',
      comment: 'an import cycle, daemon or WebShell',
      severity: 'error',
      from: { path: '^(daemon|webshell)/src/' },
      to: { circular: true },
    },
    {
      name: 'clients-see-the-service',
      comment: 'http and gateway reach the daemon through service/ferry-service, not its parts',
      severity: 'error',
      from: { path: '^daemon/src/(http|gateway)/' },
      to: {
        path: '^daemon/src/(core/ferry|sessions/(sessions|session|session-manager|call-runner|permission-broker|input-broker))\\.ts$',
      },
    },
    {
      name: 'protocol-is-browser-safe',
      comment: 'protocol/ is shared with the WebShell: no Node module and nothing outside it',
      severity: 'error',
      from: { path: '^daemon/src/protocol/', pathNot: '\\.test\\.ts$' },
      to: {
        pathNot: ['^daemon/src/protocol/', '^node_modules/[.]pnpm/zod@[0-9.]+/node_modules/zod/'],
      },
    },
    {
      name: 'webshell-reaches-only-protocol',
      comment: 'the WebShell may use the daemon only through its browser-safe protocol module',
      severity: 'error',
      from: { path: '^webshell/src/' },
      to: { path: '^daemon/', pathNot: '^daemon/src/protocol/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
}
