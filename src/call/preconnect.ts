// Warming a connection ahead: to a companion on another origin once intent loaded the call chunk
// (element/in-call.ts), and to the service's GraphQL origin beside a call's create (call-setup.ts),
// so the first request finds it open. In the call chunk, not the idle entry. Chromium ignores
// preconnects in incognito windows (and Playwright's contexts): there the request opens its own.
/** A `<link rel="preconnect">` to an origin other than the page's, once: its first request then finds the connection open. */
export function preconnect(endpoint: string | null): void {
  let origin: string;
  try {
    origin = new URL(endpoint ?? '', location.href).origin;
  } catch {
    return;
  }
  if (origin === location.origin || document.head.querySelector(`link[rel=preconnect][href="${origin}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = origin;
  // The companion's fetch sends no credentials to another origin: the same (anonymous) connection pool.
  link.crossOrigin = 'anonymous';
  document.head.append(link);
}
