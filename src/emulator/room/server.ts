// PLACEHOLDER until the media half lands: binds the media port so the REST half can report a
// `mediaUrl`, and answers every request 404. Replaced by the LiveKit-protocol room server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MediaServer, MediaServerOptions } from '../seam.js';

export async function startMediaServer(options: MediaServerOptions): Promise<MediaServer> {
  const server = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'not_found', message: 'media server not implemented yet' } }));
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://${options.host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
