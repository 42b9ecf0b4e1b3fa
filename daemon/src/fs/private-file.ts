// Writes a file only its owner may read (0600), whole: through a temporary file, synced, then
// renamed over the target, so a crash leaves either the old file or the new one.

import { open, rename, rm } from 'node:fs/promises'

export async function writePrivateFile(target: string, text: string): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`
  try {
    await rm(temp, { force: true })
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}
