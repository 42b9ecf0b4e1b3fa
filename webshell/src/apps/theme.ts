// The two palettes the WebShell and its Apps are shown in.

export type Theme = 'light' | 'dark'
