// ferry config input <id>: answers a `${input:id}` placeholder (as VS Code's `.vscode/mcp.json`
// uses them) without editing the file that asks for it. The answer is typed on the terminal without
// being shown, read from stdin, or a variable named with `--from-env`; it is kept in Ferry's own
// inputs.json, and a running daemon reloads to use it.

import { Writable } from 'node:stream'
import { createInterface } from 'node:readline/promises'
import { saveInputAnswer } from '../config/input-answers.js'
import { settingsPaths } from '../config/settings-paths.js'
import { ErrorCode, FerryError } from '../errors.js'
import { readRuntimeFile } from '../daemon/runtime-file.js'
import type { ReloadResponse } from '../protocol/index.js'
import type { CliContext, CliIo } from './context.js'
import { connectDaemon } from './daemon-client.js'
import { printReload } from './server-commands.js'
import { terminalText } from './terminal-text.js'

export interface InputOptions {
  /** Answer with `${NAME}`: the variable's value when Ferry starts, never stored. */
  fromEnv?: string
}

function usage(message: string): FerryError {
  return new FerryError(ErrorCode.BadRequest, message)
}

/** Reads a line from the terminal without showing what is typed. */
async function hiddenLine(io: CliIo, question: string): Promise<string> {
  let shown = true
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (shown) io.stderr.write(chunk)
      done()
    },
  })
  const rl = createInterface({ input: io.stdin, output, terminal: true })
  try {
    const answer = rl.question(terminalText(question))
    shown = false
    return await answer
  } finally {
    rl.close()
    io.stderr.write('\n')
  }
}

/** All of stdin, without its final line break. */
async function wholeStdin(io: CliIo): Promise<string> {
  let text = ''
  for await (const chunk of io.stdin) text += chunk.toString()
  return text.replace(/\r?\n$/, '')
}

export async function answerInput(
  ctx: CliContext,
  id: string,
  options: InputOptions,
): Promise<number> {
  if (id === '' || id.includes('}')) {
    throw usage(`"${id}" cannot be an input id: an id is what stands between "\${input:" and "}"`)
  }
  let answer: string
  if (options.fromEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.fromEnv)) {
      throw usage(`--from-env takes a variable name such as API_KEY, not "${options.fromEnv}"`)
    }
    answer = `\${${options.fromEnv}}`
  } else {
    const typed =
      ctx.io.stdin.isTTY === true
        ? await hiddenLine(ctx.io, `Answer for \${input:${id}} (not shown): `)
        : await wholeStdin(ctx.io)
    if (typed === '') throw usage(`no answer given for \${input:${id}}; nothing was saved`)
    // Answers are expanded like any value: what was typed is kept as typed.
    answer = typed.replaceAll('$', '$$$$')
  }
  const file = settingsPaths({
    env: ctx.io.env,
    homeDir: ctx.homeDir,
    cwd: ctx.io.cwd,
    configFile: undefined,
  }).inputAnswers
  await saveInputAnswer(file, id, answer)
  ctx.out(`Saved the answer to \${input:${id}} in ${file}.`)
  if ((await readRuntimeFile(ctx.stateDir)) === undefined) {
    ctx.out('Ferry is not running; it uses the answer when it starts.')
    return 0
  }
  printReload(ctx, await (await connectDaemon(ctx.stateDir)).post<ReloadResponse>('/reload'))
  return 0
}
