#!/usr/bin/env node
// Ferry's command-line entry: the compiled CLI, bundled, lives in ../dist/bundle.
import { main } from '../dist/bundle/ferry.js'

main(process.argv).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`ferry: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  },
)
