// The bearer token reaches the page once, in the URL fragment; it moves to sessionStorage and
// leaves the address bar at once, so it never sits in history, bookmarks or a Referer.

const KEY = 'ferry.token'

export function takeToken(): string | null {
  const params = new URLSearchParams(location.hash.slice(1))
  const fromUrl = params.get('token')
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl)
    params.delete('token')
    const rest = params.toString()
    history.replaceState(
      null,
      '',
      `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`,
    )
  }
  return sessionStorage.getItem(KEY)
}
