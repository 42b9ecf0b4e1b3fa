// The import rules `pnpm lint` checks (see docs/architecture.md, "Layers"). The daemon's folders
// are layers, lowest first; a module may import its own layer and those below it, never above.
// Neither the daemon nor the WebShell may have an import cycle.

/** The daemon's layers, lowest first; each holds folders (or single files) of daemon/src. */
const LAYERS = [
  ['protocol', 'errors', 'log', 'limits', 'version', 'fs'],
  ['config'],
  ['apps'],
  ['tools'],
  ['mcp'],
  ['core'],
  ['sessions'],
  ['service'],
  ['gateway'],
  ['http'],
  ['daemon'],
  ['cli', 'bench', 'demo'],
]

const pathOf = (names) => `^daemon/src/(${names.join('|')})([./]|$)`

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.join('-')}`,
  comment: `${layer.join(', ')} may not import a layer above it`,
  severity: 'error',
  from: { path: pathOf(layer), pathNot: '\\.test\\.tsx?$' },
  to: { path: pathOf(LAYERS.slice(index + 1).flat()) },
}))

module.exports = {
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
