// The emulator's REST API as node tests call it: the API key as a bearer, JSON both ways, a
// failing status an assertion that names the route.
import assert from 'node:assert/strict';
import type { Emulator } from '../../src/emulator/index.js';

export async function emulatorRest<T>(
  emulator: Pick<Emulator, 'apiUrl' | 'apiKey'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${emulator.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status}`);
  return (await response.json()) as T;
}
