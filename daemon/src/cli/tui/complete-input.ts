// Tab completion at the attach prompt: command names after `/`, tool names after `/call `.

import { COMMANDS } from './parse-command.js'

export interface Completion {
  /** The input after completing (unchanged when nothing matches). */
  input: string
  /** What still matches when the completion is ambiguous; empty otherwise. */
  candidates: string[]
}

function commonPrefix(words: string[]): string {
  let prefix = words[0] ?? ''
  for (const word of words) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1)
  }
  return prefix
}

function completeWord(head: string, word: string, choices: readonly string[]): Completion {
  const matches = choices.filter((choice) => choice.startsWith(word))
  if (matches.length === 0) return { input: head + word, candidates: [] }
  if (matches.length === 1) return { input: `${head}${matches[0]} `, candidates: [] }
  return { input: head + commonPrefix(matches), candidates: matches }
}

/** Completes the word at the end of `input`, when it is a command or a `/call` tool name. */
export function completeInput(input: string, tools: readonly string[]): Completion {
  const call = /^(\s*\/call\s+)(\S*)$/.exec(input)
  if (call !== null) return completeWord(call[1] as string, call[2] as string, [...tools].sort())
  const command = /^(\s*)(\/\S*)$/.exec(input)
  if (command !== null) {
    return completeWord(
      command[1] as string,
      command[2] as string,
      COMMANDS.map((c) => c.name),
    )
  }
  return { input, candidates: [] }
}
