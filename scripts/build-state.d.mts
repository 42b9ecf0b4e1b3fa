/** A part of Ferry that starting it needs: the file its build writes last, and what it is built from. */
export interface BuildPart {
  name: string
  output: string
  inputs: string[]
}

export const PARTS: BuildPart[]

/** Why each stale part needs building, e.g. `daemon: not built`; empty when all are fresh. */
export function staleBuilds(root: string, parts?: BuildPart[]): Promise<string[]>
