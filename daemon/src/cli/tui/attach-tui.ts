// `ferry attach`: the full-screen terminal client of one session, drawn with Ink on the terminal's
// alternate screen. Detaching (Ctrl-C, /quit) leaves the session running and exits with 0.

import { ErrorCode, FerryError } from '../../errors.js'
import type { CliContext } from '../context.js'
import { createAttachController } from './attach-controller.js'
import { createAttachStore } from './attach-store.js'
import { fetchSessions } from './daemon-lists.js'

const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h'
const LEAVE_ALTERNATE_SCREEN = '\x1b[?1049l'

/** Fails early for a session id the running daemon does not know; a daemon not running yet is waited for. */
async function checkSession(stateDir: string, session: string | undefined): Promise<void> {
  if (session === undefined) return
  const sessions = await fetchSessions(stateDir).catch(() => undefined)
  if (sessions !== undefined && !sessions.some((entry) => entry.id === session)) {
    throw new FerryError(ErrorCode.NotFound, `no session ${session}; \`ferry sessions\` lists them`)
  }
}

export async function attachTui(
  ctx: CliContext,
  session: string | undefined,
  options: { readOnly: boolean },
): Promise<number> {
  if (ctx.io.stdin.isTTY !== true || ctx.io.stdout.isTTY !== true) {
    throw new FerryError(
      ErrorCode.BadRequest,
      'the full-screen attach needs a terminal; use `ferry attach --plain` or `--json` in pipes',
    )
  }
  await checkSession(ctx.stateDir, session)
  // Ink draws only a final frame when it believes it runs in CI, and it reads that once, on import.
  // This is an interactive terminal (checked above), so every frame is wanted.
  delete process.env.CI
  delete process.env.CONTINUOUS_INTEGRATION
  const store = createAttachStore(options.readOnly)
  let detach = () => {}
  const controller = createAttachController({
    stateDir: ctx.stateDir,
    session,
    readOnly: options.readOnly,
    store,
    label: `ferry attach (pid ${process.pid})`,
    onQuit: () => detach(),
  })
  // Connecting and loading Ink overlap; the store keeps what arrives before the first frame.
  controller.start()
  const [{ render }, { createElement }, { App }, { AttachContext }] = await Promise.all([
    import('ink'),
    import('react'),
    import('./App.js'),
    import('./attach-context.js'),
  ]).catch((error: unknown) => {
    controller.stop()
    throw error
  })
  process.stdout.write(ENTER_ALTERNATE_SCREEN)
  const app = createElement(
    AttachContext.Provider,
    { value: { store, controller, detach: () => detach() } },
    createElement(App),
  )
  const ink = render(app, { exitOnCtrlC: false, patchConsole: true })
  detach = () => {
    controller.stop()
    ink.unmount()
  }
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
  for (const signal of signals) process.once(signal, detach)
  try {
    await ink.waitUntilExit()
  } finally {
    for (const signal of signals) process.off(signal, detach)
    process.stdout.write(LEAVE_ALTERNATE_SCREEN)
  }
  return 0
}
