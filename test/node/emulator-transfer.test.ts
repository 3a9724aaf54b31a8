// The emulator's transfer: GraphQL `hangupCall(dialId, transferNumber)` on a live browser dial
// ends the agent's part and the person takes the call (another voice, their own script, the
// participant renamed); the dial ends TRANSFERRED whoever hangs up, `durationSeconds` counting the
// whole call and `aiDurationSeconds` the agent's part only. Refused: a number that is not E.164,
// a dial not in progress, a second transfer, another dial's token, and every emu-transfer-refused dial.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParticipantInfo } from '@livekit/protocol';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { LINES, PERSON_LINES } from '../../src/emulator/agent/scenarios.js';
import { AgentParticipant, PERSON_NAME } from '../../src/emulator/room/agent-participant.js';
import type { Peer } from '../../src/emulator/room/media/peer.js';
import { DEFAULT_ROOM_TIMINGS } from '../../src/emulator/room/server.js';
import { graphql } from '../support/media-credentials.js';
import { StandInPeer } from '../support/stand-in-peer.js';

const NUMBER = '+14155550123';

interface Created {
  dialId: string;
  dialToken: string;
  sessionId: string;
}

interface Record {
  status: string;
  systemResultType: string | null;
  durationSeconds: number | null;
  aiDurationSeconds: number | null;
  transcript: Array<{ text: string; speaker: string }>;
}

async function rest<T>(emu: Emulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(emu.apiUrl + path, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${method} ${path}`);
  return (await response.json()) as T;
}

const newDial = (emu: Emulator, callAgentId: string) =>
  rest<Created>(emu, 'POST', '/dials', { callAgentId, browserCall: true });
const record = (emu: Emulator, dialId: string) => rest<Record>(emu, 'GET', `/dials/${dialId}`);
const transfer = (emu: Emulator, token: string, dialId: string, transferNumber: unknown = NUMBER) =>
  graphql<{ hangupCall: boolean }>(emu.graphqlUrl, token, 'HangupCall', { dialId, transferNumber });

async function withEmulator(run: (emu: Emulator) => Promise<void>): Promise<void> {
  const emu = await startEmulator({ logger: false });
  try {
    await run(emu);
  } finally {
    await emu.close();
  }
}

describe('hangupCall with a transferNumber', () => {
  test('refusals: not E.164, not in progress, another dial, emu-transfer-refused, a second transfer; the dial goes on', async () => {
    await withEmulator(async (emu) => {
      const dial = await newDial(emu, 'emu-no-agent');
      const other = await newDial(emu, 'emu-no-agent');
      const codeOf = async (answer: ReturnType<typeof transfer>) => (await answer).errors?.[0]?.extensions?.code;
      assert.equal(await codeOf(transfer(emu, dial.dialToken, dial.dialId)), 'FAILED_PRECONDITION', 'not joined yet');
      emu.control.joined(dial.dialId);
      for (const bad of ['4155550123', '+0800', '+1 415 555 0123', ''])
        assert.equal(await codeOf(transfer(emu, dial.dialToken, dial.dialId, bad)), 'BAD_USER_INPUT', bad);
      assert.equal(await codeOf(transfer(emu, other.dialToken, dial.dialId)), 'FORBIDDEN');
      assert.equal((await record(emu, dial.dialId)).status, 'in-progress');

      assert.equal((await transfer(emu, emu.apiKey, dial.dialId)).data?.hangupCall, true, 'the API key may');
      assert.equal(await codeOf(transfer(emu, dial.dialToken, dial.dialId)), 'FAILED_PRECONDITION', 'once');

      const refused = await newDial(emu, 'emu-transfer-refused');
      emu.control.joined(refused.dialId);
      const answer = await transfer(emu, emu.apiKey, refused.dialId);
      assert.equal(answer.errors?.[0]?.extensions?.code, 'FAILED_PRECONDITION');
      assert.equal(answer.data ?? null, null);
      const still = await record(emu, refused.dialId);
      assert.equal(still.status, 'in-progress', 'the refused call stays with the agent');
    });
  });

  test('the dial ends TRANSFERRED when the caller hangs up; durationSeconds counts the whole call, aiDurationSeconds the part before the transfer', async () => {
    await withEmulator(async (emu) => {
      const dial = await newDial(emu, 'emu-no-agent');
      emu.control.joined(dial.dialId);
      assert.equal((await transfer(emu, emu.apiKey, dial.dialId)).data?.hangupCall, true);
      // The person's part lasts a while: it is what durationSeconds has and aiDurationSeconds has not.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const hangup = await graphql(emu.graphqlUrl, dial.dialToken, 'HangupCall', { dialId: dial.dialId });
      assert.equal(hangup.data?.['hangupCall'], true);
      const ended = await record(emu, dial.dialId);
      assert.equal(ended.status, 'completed');
      assert.equal(ended.systemResultType, 'TRANSFERRED');
      assert.equal(ended.aiDurationSeconds, 0);
      assert.ok(
        (ended.durationSeconds ?? 0) >= 2 - 1 && (ended.durationSeconds ?? 0) <= 3,
        String(ended.durationSeconds),
      );
      assert.ok((ended.durationSeconds ?? 0) > (ended.aiDurationSeconds ?? 0));
    });
  });

  test("in the room: the agent's line is cut off, the participant is renamed, and the person greets in another voice and is transcribed", async () => {
    await withEmulator(async (emu) => {
      // emu-quick, cut off in its greeting: its script must take no further step (its goodbye, its hang-up).
      const dial = await newDial(emu, 'emu-quick');
      const peer = new StandInPeer();
      const names: string[] = [];
      const agent = new AgentParticipant({
        dialId: dial.dialId,
        scenario: 'emu-quick',
        control: emu.control,
        timings: { ...DEFAULT_ROOM_TIMINGS, thinkMs: 10, quickListenMs: 100, personAnswerMs: 50 },
        rejoined: false,
        peer: () => peer as unknown as Peer,
        sinceJoin: () => 0,
        micTrackSid: () => 'TR_mic',
        micMuted: () => false,
        sendUpdate: (info: ParticipantInfo) => names.push(info.name),
        hangup: (systemResultType) => emu.control.end(dial.dialId, { status: 'completed', systemResultType }),
        drop: () => {},
        blip: () => {},
        left: () => {},
        shutDown: () => {},
      });
      const stopHearing = emu.control.onTransferred((id) => id === dial.dialId && agent.transfer());
      try {
        emu.control.joined(dial.dialId);
        agent.start();
        assert.equal(
          (await graphql(emu.graphqlUrl, dial.dialToken, 'StartDialSession', { sessionId: dial.sessionId })).data?.[
            'startDialSession'
          ],
          true,
        );
        // Transferred while the agent greets: the greeting is cut off. The line is held where it is
        // until the transfer has been asked for: at 20x real time it lasts 75 ms, which a loaded
        // machine's round trip could outlast (one CI run on Node 22).
        peer.holding = true;
        await waitFor(() => peer.played.length === 1);
        assert.equal((await transfer(emu, dial.dialToken, dial.dialId)).data?.hangupCall, true);
        peer.holding = false;
        await waitFor(async () =>
          (await record(emu, dial.dialId)).transcript.some((line) => line.text === PERSON_LINES.greeting),
        );
        const lines = (await record(emu, dial.dialId)).transcript;
        assert.ok(!lines.some((line) => line.text === LINES.quickGreeting), 'the greeting was cut off');
        assert.ok(!lines.some((line) => line.text === LINES.quickGoodbye), "the agent's script took no further step");
        assert.equal((await record(emu, dial.dialId)).status, 'in-progress', 'the agent did not hang up');
        assert.equal(lines.at(-1)?.speaker, 'AI', "the person's lines are on the agent's side of the transcript");
        assert.ok(names.includes(PERSON_NAME));
        assert.equal(peer.played.length, 2);
        // Another voice: the person's greeting is not the agent's voice saying the same words.
        const { speech } = await import('../../src/emulator/agent/voice.js');
        const [asAgent, asPerson] = await Promise.all([
          speech(PERSON_LINES.greeting, 'agent'),
          speech(PERSON_LINES.greeting, 'person'),
        ]);
        assert.notDeepEqual(asAgent, asPerson);
      } finally {
        stopHearing();
        agent.stop();
      }
    });
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
