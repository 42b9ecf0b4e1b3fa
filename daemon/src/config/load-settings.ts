// Loads Ferry's settings: reads the user and workspace files (or one explicit file), merges them,
// and resolves every server to enabled, disabled, invalid or awaiting approval. Falls back to the
// demo server.

import { access } from 'node:fs/promises'
import { resolve } from 'node:path'
import { checkApproval } from './approval-check.js'
import { DEFAULT_GATEWAY } from './defaults.js'
import { demoSettings } from './demo-settings.js'
import { describeEntry } from './describe-entry.js'
import { canonicalJson } from './fingerprint.js'
import type { LoadOptions } from './load-options.js'
import { readInputAnswers } from './input-answers.js'
import { readSettingsFile, type SettingsFile } from './read-settings-file.js'
import { resolveServer, type ResolveInput } from './resolve-server.js'
import { settingsPaths } from './settings-paths.js'
import type { WorkspaceEntry } from '../protocol/workspace.js'
import type {
  FileWithoutServers,
  GatewaySettings,
  ServerEntry,
  Settings,
  WorkspaceApproval,
} from './types.js'

interface Source {
  raw: unknown
  file: string
  /** The user's entry of the same name that a workspace entry replaces. */
  replaced: { raw: unknown; file: string } | undefined
}

export async function loadSettings(options: LoadOptions): Promise<Settings> {
  const paths = settingsPaths(options)
  let files: SettingsFile[]
  if (paths.explicit !== undefined) {
    const file = await readSettingsFile(paths.explicit, true)
    files = file === undefined ? [] : [file]
  } else {
    const read = await Promise.all(
      [paths.user, paths.workspace].map((path) => readSettingsFile(path, false)),
    )
    files = read.filter((file): file is SettingsFile => file !== undefined)
  }
  // Roots are declared only where Ferry knows a workspace: one named with --workspace, or one that
  // has settings of its own; otherwise a server keeps the directories it was configured with.
  const workspaceRoots =
    options.workspaceDeclared === true || (await exists(paths.workspace))
      ? [resolve(options.cwd)]
      : false
  if (files.length === 0) return demoSettings(paths.workspace, workspaceRoots)

  // Later files win for servers: a workspace entry replaces the user's entry of the same name as a
  // whole, and waits for the person's approval like any workspace entry. The lists only tighten: a
  // repository's settings can never re-allow what the user's `mcp.allowed` leaves out or
  // `mcp.excluded` names.
  const entries = new Map<string, Source>()
  const allowed: string[][] = []
  const excluded: string[] = []
  const warnings: string[] = []
  // The answers given with `ferry config input`, for every file; a file's own answers win.
  const inputs: Record<string, string> = await readInputAnswers(paths.inputAnswers, warnings)
  const inputDescriptions = new Map<string, string>()
  const gateway: GatewaySettings = { ...DEFAULT_GATEWAY }
  for (const file of files) {
    for (const [name, raw] of file.servers) {
      const before = entries.get(name)
      entries.set(name, { raw, file: file.path, replaced: before })
    }
    if (file.allowed !== undefined) allowed.push(file.allowed)
    excluded.push(...(file.excluded ?? []))
    warnings.push(...file.warnings)
    for (const [id, description] of file.inputDescriptions) inputDescriptions.set(id, description)
    // An answer feeds a server's values as the user's own: a repository must not set them.
    if (
      file.inputs !== undefined &&
      paths.explicit === undefined &&
      file.path === paths.workspace
    ) {
      warnings.push('inputs: ignored in workspace settings; answer inputs in your user settings')
    } else Object.assign(inputs, file.inputs)
    // Who may reach the person's servers, and how, is the person's choice, not a repository's.
    if (file.gateway !== undefined) {
      if (paths.explicit === undefined && file.path === paths.workspace) {
        warnings.push(
          'gateway: ignored in workspace settings; set the gateway in your user settings',
        )
      } else Object.assign(gateway, file.gateway)
    }
  }

  const approvals = options.approvals ?? {}
  const servers: ServerEntry[] = []
  for (const [name, { raw, file, replaced }] of entries) {
    // An explicit --config file is the person's own choice, even when it is the workspace file.
    const fromWorkspace = paths.explicit === undefined && file === paths.workspace
    // A workspace entry identical to the user's own entry of that name changes nothing.
    const needsApproval =
      fromWorkspace &&
      (replaced === undefined || canonicalJson(replaced.raw) !== canonicalJson(raw))
    const describe = () =>
      describeEntry({
        name,
        raw,
        file,
        overrides: replaced?.file,
        workspace: resolve(options.cwd),
        userHome: options.homeDir,
        path: options.env.PATH,
      })
    let approval: ResolveInput['approval']
    let approved: WorkspaceApproval | undefined
    if (needsApproval) {
      const description = await describe()
      const record = Object.hasOwn(approvals, name) ? approvals[name] : undefined
      const check = checkApproval(record, description, raw)
      approval = check.approved
        ? { approved: true, description }
        : { approved: false, description: { ...description, lapsed: check.lapsed } }
      if (check.approved) approved = recheckable(description, raw, describe)
    }
    const resolved = await resolveServer({
      name,
      raw,
      file,
      env: options.env,
      placeholders: { workspaceFolder: options.cwd, userHome: options.homeDir, inputs },
      inputDescriptions,
      workspaceRoots,
      policy: { allowed, excluded },
      ...(approval === undefined ? {} : { approval }),
    })
    if (resolved.entry.state === 'enabled' && approved !== undefined) {
      resolved.entry.approval = approved
    }
    // A repository must not be able to switch confirmations off: only the user's own settings
    // (or an explicit --config file) may trust a server.
    const entry = resolved.entry
    if (entry.state === 'enabled' && entry.config.trust && fromWorkspace) {
      entry.config = { ...entry.config, trust: false }
      warnings.push(
        `mcpServers.${name}.trust: ignored in workspace settings; trust a server in your user settings`,
      )
    }
    servers.push(entry)
    warnings.push(...resolved.warnings)
  }
  return {
    files: files.map((file) => file.path),
    servers,
    warnings: [...new Set(warnings)],
    usingDemo: false,
    workspaceFile: paths.workspace,
    filesWithoutServers: filesWithoutServers(files, servers, entries),
    gateway,
  }
}

/** The approval an entry started under, and how to tell, before a later start, that it still holds. */
function recheckable(
  description: WorkspaceEntry,
  raw: unknown,
  describe: () => Promise<WorkspaceEntry>,
): WorkspaceApproval {
  const record = { digest: description.digest, files: description.files }
  return {
    digest: description.digest,
    recheck: async () => {
      const now = await describe()
      const check = checkApproval(record, now, raw)
      return check.approved
        ? undefined
        : (check.lapsed ?? 'its entry changed since you approved it')
    },
  }
}

/**
 * Files that look like server configs but gave none: no `mcpServers` / `servers` object and no
 * `mcp` lists (another shape of file), or entries that are all invalid.
 */
function filesWithoutServers(
  files: SettingsFile[],
  servers: ServerEntry[],
  sources: Map<string, Source>,
): FileWithoutServers[] {
  const found: FileWithoutServers[] = []
  for (const file of files) {
    if (!file.hasServersKey) {
      if (file.hasPolicy) continue
      found.push({
        file: file.path,
        reason: 'it has no "mcpServers" (or VS Code "servers") object',
      })
      continue
    }
    const own = servers.filter((server) => sources.get(server.name)?.file === file.path)
    if (own.length > 0 && own.every((server) => server.state === 'invalid')) {
      found.push({ file: file.path, reason: `every server in it is invalid (${own.length})` })
    }
  }
  return found
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}
