// A first WebShell page: takes the token from the URL fragment into sessionStorage, removes it
// from the address bar, and lists servers and tools through the API.

const params = new URLSearchParams(location.hash.slice(1))
const fromUrl = params.get('token')
if (fromUrl) {
  sessionStorage.setItem('ferry.token', fromUrl)
  history.replaceState(null, '', location.pathname + location.search)
}
const token = sessionStorage.getItem('ferry.token')
const message = document.getElementById('message')

async function api(path) {
  const response = await fetch(`/api${path}`, { headers: { authorization: `Bearer ${token}` } })
  const body = await response.json()
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`)
  return body
}

function item(text, className) {
  const li = document.createElement('li')
  li.textContent = text
  if (className) li.className = className
  return li
}

async function show() {
  if (!token) {
    message.textContent =
      'Open Ferry from a terminal with `ferry start` and follow the URL it prints.'
    return
  }
  const [servers, tools] = await Promise.all([api('/servers'), api('/tools')])
  const ready = servers.filter((s) => s.status === 'ready').length
  document.getElementById('summary').textContent = `(${ready}/${servers.length} ready)`
  document
    .getElementById('server-list')
    .replaceChildren(
      ...servers.map((s) =>
        item(`${s.name}: ${s.status}${s.error ? ` — ${s.error}` : ''}`, `status-${s.status}`),
      ),
    )
  document
    .getElementById('tool-list')
    .replaceChildren(...tools.map((t) => item(`${t.name} — ${t.title ?? t.description ?? ''}`)))
  document.getElementById('servers').hidden = false
  document.getElementById('tools').hidden = false
  message.textContent = ''
}

show().catch((error) => {
  message.textContent = `Ferry could not load: ${error.message}`
})
