// WebShell entry: takes the token from the URL and renders the app.

import { render } from 'preact'
import './style.css'
import { App } from './App.js'
import { applyTheme, storedTheme } from './theme-choice.js'
import { takeToken } from './token.js'

// Before the first paint, so a chosen palette never flashes the other one.
applyTheme(storedTheme(), false)

render(<App token={takeToken()} />, document.getElementById('app') as HTMLElement)
