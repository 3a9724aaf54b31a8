// Which signal path the LiveKit client took: while the calling suite runs, the page's WebSocket
// records the path of every signal WebSocket (/rtc…) it opens.

/** Registers the suite's before/after hooks; the array fills as the suite's tests connect. */
export function recordSignalPaths(): string[] {
  const signalPaths: string[] = [];
  const NativeWebSocket = window.WebSocket;
  before(() => {
    window.WebSocket = class extends NativeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        const { pathname } = new URL(String(url));
        if (pathname.startsWith('/rtc')) signalPaths.push(pathname);
      }
    };
  });
  after(() => {
    window.WebSocket = NativeWebSocket;
  });
  return signalPaths;
}
