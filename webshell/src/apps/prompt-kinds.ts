// What an App's own request may put to the person: open a page, or save files.

import type { DownloadFile } from './app-files.js'

export type LinkAnswer = 'once' | 'always' | 'declined'

export type Prompt =
  | { kind: 'link'; url: URL; answer(choice: LinkAnswer): void }
  | { kind: 'download'; files: DownloadFile[]; answer(save: boolean): void }
