// `voice-agent-emulator [--port N] [--media-port N] [--api-key KEY] [--join-window-ms N] [--idempotency replay|strict] [--ice-config TEXT] [--keep-ended-dials N] [--keep-ended-dials-minutes N]`
// Prints one JSON line {apiUrl, mediaUrl, apiKey, graphqlUrl} on stdout when ready; logs go to stderr.
import { parseArgs } from 'node:util';
import { IDEMPOTENCY_MODES, type IdempotencyMode } from './api/idempotency.js';
import { startEmulator } from './index.js';
import { stopWhenAsked } from '../server/node.js';

const usage =
  'usage: voice-agent-emulator [--port N] [--media-port N] [--api-key KEY] [--join-window-ms N] [--idempotency replay|strict] [--ice-config TEXT] [--keep-ended-dials N] [--keep-ended-dials-minutes N]';

function portOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`${name} must be a port number (0-65535)`);
  return port;
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number`);
  return Number(value);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'media-port': { type: 'string' },
      'api-key': { type: 'string' },
      'join-window-ms': { type: 'string' },
      idempotency: { type: 'string' },
      'ice-config': { type: 'string' },
      'keep-ended-dials': { type: 'string' },
      'keep-ended-dials-minutes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stderr.write(`${usage}\n`);
    return;
  }
  const joinWindow = values['join-window-ms'];
  if (joinWindow !== undefined && !/^\d+$/.test(joinWindow)) throw new Error('--join-window-ms must be a whole number');
  const idempotency = values.idempotency;
  if (idempotency !== undefined && !(IDEMPOTENCY_MODES as readonly string[]).includes(idempotency)) {
    throw new Error(`--idempotency must be one of ${IDEMPOTENCY_MODES.join(', ')}`);
  }
  const keepCount = wholeNumber(
    values['keep-ended-dials'] ?? process.env.VOICE_AGENT_EMULATOR_KEEP_ENDED_DIALS,
    '--keep-ended-dials',
  );
  const keepMinutes = wholeNumber(
    values['keep-ended-dials-minutes'] ?? process.env.VOICE_AGENT_EMULATOR_KEEP_ENDED_DIALS_MINUTES,
    '--keep-ended-dials-minutes',
  );
  const emulator = await startEmulator({
    endedDialRetention: {
      ...(keepCount === undefined ? {} : { maxCount: keepCount }),
      ...(keepMinutes === undefined ? {} : { maxAgeMs: keepMinutes * 60_000 }),
    },
    port: portOption(values.port, '--port'),
    mediaPort: portOption(values['media-port'], '--media-port'),
    apiKey: values['api-key'] ?? process.env.VOICE_AGENT_EMULATOR_API_KEY,
    joinWindowMs: joinWindow === undefined ? undefined : Number(joinWindow),
    idempotency: idempotency as IdempotencyMode | undefined,
    iceConfig: values['ice-config'],
  });
  // process.exit after the close (stopWhenAsked does it), not a natural exit: the media half's
  // libwebrtc crashes a process that winds down on its own. The room's process exits when this one does.
  stopWhenAsked((why) => {
    process.stderr.write(`[emulator] ${why}: stopping\n`);
    return emulator.close().catch((error: unknown) => {
      process.stderr.write(`[emulator] error while stopping: ${String(error)}\n`);
      throw error;
    });
  });
  // Ready to be stopped before it says it is ready (server/cli.ts says why).
  process.stdout.write(
    `${JSON.stringify({ apiUrl: emulator.apiUrl, mediaUrl: emulator.mediaUrl, apiKey: emulator.apiKey, graphqlUrl: emulator.graphqlUrl })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`voice-agent-emulator: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
  process.exit(2);
});
