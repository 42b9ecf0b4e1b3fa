#!/usr/bin/env node
// Ferry's command-line entry: the compiled CLI lives in ../dist.
import { main } from '../dist/cli/main.js'

main(process.argv).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`ferry: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  },
)
