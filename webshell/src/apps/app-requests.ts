// The requests an App may make of its host, and nothing else: each capability advertised in
// `ui/initialize` has its handler here. Every request goes to the daemon (which checks it against
// the App's own server, runs calls through the permission broker and records it); links and
// downloads are asked of the person first, here in the tab, and recorded once done.

import type { AppBridge, McpUiHostCapabilities } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { AppRequest } from '../../../daemon/src/protocol/index.js'
import { downloadFiles, webUrl } from './app-files.js'
import type { AppChannel } from '../stream.js'
import { AppPrompts, openPage } from './app-prompts.js'
import { APP_CLOSED_MESSAGE, AppRequestError, AppSession } from './app-session.js'

const MODALITIES = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {} }

/** Exactly what `wireRequests` handles; display modes are advertised by the host context. */
export const HOST_CAPABILITIES: McpUiHostCapabilities = {
  serverTools: {},
  serverResources: {},
  openLinks: {},
  downloadFile: {},
  logging: {},
  message: MODALITIES,
  updateModelContext: { ...MODALITIES, structuredContent: {} },
}

export interface AppRequestsOptions {
  channel: AppChannel
  /** The call whose result rendered the App. */
  callId: string
  /** Origins the person let this App's session open without asking ("always"), kept by the page. */
  links: { allowed(origin: string): boolean; allow(origin: string): void }
  /** The App asked to be closed. */
  onTeardownRequested(): void
}

export interface AppRequests {
  /** The App is on screen: it is opened with the daemon. */
  open(): void
  /** Its teardown starts: requests are refused from now on and an open question goes. */
  close(): void
}

interface RequestContext {
  session: AppSession
  prompts: AppPrompts
  links: AppRequestsOptions['links']
  onTeardownRequested(): void
}

/** Handles the App's requests on `bridge`, with its questions shown at the top of `container`. */
export function attachRequests(
  bridge: AppBridge,
  container: HTMLElement,
  options: AppRequestsOptions,
): AppRequests {
  const session = new AppSession(options.channel, options.callId)
  const prompts = new AppPrompts(container)
  wireRequests(bridge, { ...options, session, prompts })
  return {
    open: () => void session.open().catch(() => {}),
    close() {
      session.close()
      prompts.dispose()
    },
  }
}

function wireRequests(bridge: AppBridge, context: RequestContext): void {
  const { session, prompts } = context
  const pass = (request: AppRequest) => session.request(request)

  bridge.oncalltool = async ({ name, arguments: args }) =>
    (await pass({
      method: 'tools/call',
      params: { name, ...(args === undefined ? {} : { arguments: args }) },
    })) as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>
  bridge.onreadresource = async ({ uri }) =>
    (await pass({ method: 'resources/read', params: { uri } })) as Awaited<
      ReturnType<NonNullable<AppBridge['onreadresource']>>
    >
  bridge.onlistresources = async (params) =>
    (await pass({ method: 'resources/list', params: cursorOf(params) })) as Awaited<
      ReturnType<NonNullable<AppBridge['onlistresources']>>
    >
  bridge.onlistresourcetemplates = async (params) =>
    (await pass({ method: 'resources/templates/list', params: cursorOf(params) })) as Awaited<
      ReturnType<NonNullable<AppBridge['onlistresourcetemplates']>>
    >
  bridge.onmessage = async ({ role, content }) => {
    await pass({ method: 'ui/message', params: { role, content } })
    return {}
  }
  bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
    await pass({
      method: 'ui/update-model-context',
      params: {
        ...(content === undefined ? {} : { content }),
        ...(structuredContent === undefined ? {} : { structuredContent }),
      },
    })
    return {}
  }
  bridge.addEventListener('loggingmessage', ({ level, logger, data }) => {
    const params = { level, data, ...(logger === undefined ? {} : { logger }) }
    // A notification: nothing to answer, and a refused one is simply not recorded.
    session.request({ method: 'notifications/message', params }).catch(() => {})
  })
  bridge.addEventListener('requestteardown', () => context.onTeardownRequested())

  bridge.onopenlink = async ({ url }) => {
    const target = webUrl(url)
    // Other schemes are never shown to the person; the App hears no at once.
    if (target === null || session.isClosed || prompts.busy) return { isError: true }
    // Without the person's recent click a new tab would be blocked, so then they are asked anyway.
    if (context.links.allowed(target.origin) && freshClick()) {
      openPage(target)
    } else {
      const answer = await prompts.askLink(target)
      if (answer === 'declined') return { isError: true }
      if (answer === 'always') context.links.allow(target.origin)
    }
    await pass({ method: 'ui/open-link', params: { url: target.href } })
    return {}
  }

  bridge.ondownloadfile = async ({ contents }) => {
    if (session.isClosed) throw new AppRequestError(APP_CLOSED_MESSAGE)
    const files = downloadFiles(contents)
    if (typeof files === 'string') throw new AppRequestError(files, -32602)
    if (prompts.busy) return { isError: true }
    if (!(await prompts.askDownload(files))) return { isError: true }
    const saved = files.map(({ name, mimeType, bytes }) => ({ name, mimeType, bytes }))
    await pass({ method: 'ui/download-file', params: { files: saved } })
    return {}
  }
}

function cursorOf(params: { cursor?: string } | undefined): { cursor?: string } {
  return params?.cursor === undefined ? {} : { cursor: params.cursor }
}

/** The person clicked or typed a moment ago (in the App too), so the browser lets a tab open. */
function freshClick(): boolean {
  const activation = (navigator as { userActivation?: { isActive: boolean } }).userActivation
  return activation?.isActive === true
}
