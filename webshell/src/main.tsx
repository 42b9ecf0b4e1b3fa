// WebShell entry: takes the token from the URL and renders the app.

import { render } from 'preact'
import './style.css'
import { App } from './App.js'
import { takeToken } from './token.js'

render(<App token={takeToken()} />, document.getElementById('app') as HTMLElement)
