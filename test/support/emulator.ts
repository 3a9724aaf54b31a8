// The emulator's own view of a dial, through the test server's /__emu proxy: what the service
// would report, to check against what the widget said.
import { expect } from '@open-wc/testing';

export interface EmulatorDial {
  status: string;
  systemResultType: string | null;
}

/** `emulator`: `/__emu`, or `/__emu-strict` for the emulator in strict idempotency mode. */
export async function emulatorDial(dialId: string, emulator = '/__emu'): Promise<EmulatorDial> {
  const response = await fetch(`${emulator}/dials/${encodeURIComponent(dialId)}`);
  expect(response.status, `emulator GET /dials/${dialId}`).to.equal(200);
  return response.json();
}
