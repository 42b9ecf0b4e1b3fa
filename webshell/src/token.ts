// The bearer token reaches the page once, in the URL fragment; it moves to sessionStorage and
// leaves the address bar at once, so it never sits in history, bookmarks or a Referer. The
// session being shown lives in the query (`?session=…`), so a reload or a copied address lands
// on the same session.

const KEY = 'ferry.token'

export function takeToken(): string | null {
  const params = new URLSearchParams(location.hash.slice(1))
  const fromUrl = params.get('token')
  const session = params.get('session')
  if (fromUrl !== null || session !== null) {
    if (fromUrl) sessionStorage.setItem(KEY, fromUrl)
    params.delete('token')
    params.delete('session')
    const query = new URLSearchParams(location.search)
    if (session) query.set('session', session)
    const search = query.toString()
    const rest = params.toString()
    history.replaceState(
      null,
      '',
      `${location.pathname}${search ? `?${search}` : ''}${rest ? `#${rest}` : ''}`,
    )
  }
  return sessionStorage.getItem(KEY)
}

export function sessionInUrl(): string | undefined {
  return new URLSearchParams(location.search).get('session') ?? undefined
}

/** Records the shown session in the address; `push` makes it a history entry of its own. */
export function showSessionInUrl(session: string, push: boolean): void {
  const query = new URLSearchParams(location.search)
  if (query.get('session') === session) return
  query.set('session', session)
  const url = `${location.pathname}?${query.toString()}${location.hash}`
  if (push) history.pushState(null, '', url)
  else history.replaceState(null, '', url)
}
