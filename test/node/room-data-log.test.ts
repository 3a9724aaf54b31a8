// Issue 41, finding 2: a caller flooding the reliable data channel with bad packets (broken
// `sipDtmf` keys, bytes that are no DataPacket) gets one stderr line per interval with a count,
// not a line per packet. A real WebRTC peer connection (libwebrtc through @roamhq/wrtc) joins the
// room's v1 signal path on loopback; the room runs in this process so its stderr can be read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DataPacket,
  DataPacket_Kind,
  JoinRequest,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  SipDTMF,
  TrickleRequest,
} from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { IgnoredPacketLog } from '../../src/emulator/room/ignored-packet-log.js';
import { loadWrtc } from '../../src/emulator/room/media/peer.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { livekitCredentials } from '../support/media-credentials.js';

const INTERVAL_MS = 1500;
let emulator: Emulator;

before(async () => {
  emulator = await startEmulator({
    logger: false,
    isolateMedia: false,
    roomTimings: { leaveCloseDelayMs: 20, ignoredPacketLogMs: INTERVAL_MS },
  });
});
after(() => emulator.close());

/** The room's lines about ignored packets, kept from the test output; every other write goes through. */
function captureIgnoredPacketLines(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    if (/: ignored (a|\d+ more) data packet/.test(text)) {
      lines.push(...text.split('\n').filter(Boolean));
      return true;
    }
    return (write as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return { lines, restore: () => void (process.stderr.write = write) };
}

/** How many packets the lines account for: one for "ignored a data packet", N for "ignored N more". */
const packetsIn = (lines: string[]) =>
  lines.reduce((sum, line) => sum + Number(/ignored (\d+) more/.exec(line)?.[1] ?? 1), 0);

/** An agent-less dial's room, joined with a real peer connection; resolves once `_reliable` is open. */
async function joinWithDataChannel() {
  const api = <T>(method: string, path: string, body?: unknown) => emulatorRest<T>(emulator, method, path, body);
  const { dialId, sessionId } = await api<{ dialId: string; sessionId: string }>('POST', '/dials', {
    callAgentId: 'emu-no-agent',
    browserCall: true,
  });
  const { dialToken } = await api<{ dialToken: string }>('POST', `/dials/${dialId}/token`);
  const { token } = await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId);

  const wrtc = await loadWrtc();
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] });
  const channel = pc.createDataChannel('_reliable', { ordered: true });
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  const join = new JoinRequest({
    publisherOffer: new SessionDescription({ type: 'offer', sdp: offer.sdp ?? '', id: 1 }),
  });
  const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(join) });
  const ws = new WebSocket(`${emulator.mediaUrl}/rtc/v1?${query}`, { headers: { authorization: `Bearer ${token}` } });
  // Candidates gathered before the socket is open wait for it, as livekit-client's do.
  const opened = new Promise((resolve) => ws.once('open', resolve));
  const send = (message: SignalRequest['message']) =>
    void opened.then(() => ws.send(new SignalRequest({ message }).toBinary()));
  pc.onicecandidate = ({ candidate }) => {
    if (!candidate) return;
    const init = { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex };
    send({
      case: 'trickle',
      value: new TrickleRequest({ candidateInit: JSON.stringify(init), target: SignalTarget.PUBLISHER }),
    });
  };
  ws.on('message', (data: Buffer) => {
    const { message } = SignalResponse.fromBinary(data);
    if (message.case === 'answer') void pc.setRemoteDescription({ type: 'answer', sdp: message.value.sdp });
    else if (message.case === 'trickle') void pc.addIceCandidate(JSON.parse(message.value.candidateInit));
  });
  await new Promise<void>((resolve, reject) => {
    channel.onopen = () => resolve();
    ws.once('close', (code) => reject(new Error(`the signal socket closed (${code}) before the data channel opened`)));
  });
  return {
    channel,
    async leave() {
      const closed = new Promise((resolve) => ws.once('close', resolve));
      ws.close();
      await closed;
      channel.close();
      pc.close();
    },
  };
}

describe("a caller's ignored data packets on stderr", () => {
  test('2,000 bad packets (broken keys, bytes that are no DataPacket) give a line and a count per interval, not 2,000 lines', async () => {
    const captured = captureIgnoredPacketLines();
    const caller = await joinWithDataChannel();
    try {
      const brokenKey = new Uint8Array(
        new DataPacket({
          kind: DataPacket_Kind.RELIABLE,
          value: { case: 'sipDtmf', value: new SipDTMF({ code: 5, digit: 'x' }) },
        }).toBinary(),
      );
      const garbage = new Uint8Array(new ArrayBuffer(4));
      garbage.set([0xff, 0xff, 0xff, 0x01]);
      const started = performance.now();
      for (let i = 0; i < 2000; i++) caller.channel.send(i % 2 === 0 ? brokenKey : garbage);
      // Every packet is accounted for once the interval after the flood has passed.
      const deadline = Date.now() + 30_000;
      while (packetsIn(captured.lines) < 2000) {
        assert.ok(Date.now() < deadline, `only ${packetsIn(captured.lines)} of 2,000 packets logged`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const elapsed = performance.now() - started;
      assert.equal(packetsIn(captured.lines), 2000);
      assert.ok(
        captured.lines.length <= 1 + Math.ceil(elapsed / INTERVAL_MS),
        `${captured.lines.length} lines in ${Math.round(elapsed)} ms:\n${captured.lines.join('\n')}`,
      );
      assert.match(captured.lines[0] ?? '', /ignored a data packet: (keypad digit "x" is not|4 bytes that are not)/);
      assert.match(captured.lines.at(-1) ?? '', /ignored \d+ more data packets within 1\.5 s \(the last: /);
    } finally {
      await caller.leave();
      captured.restore();
    }
  });
});

describe('IgnoredPacketLog', () => {
  /** A log whose lines are kept, with a way to await the next one. */
  function recorded(intervalMs: number) {
    const lines: string[] = [];
    let wake: (() => void) | undefined;
    const log = new IgnoredPacketLog((line) => {
      lines.push(line);
      wake?.();
    }, intervalMs);
    const nextLine = () => new Promise<void>((resolve) => (wake = resolve));
    return { log, lines, nextLine };
  }

  test('the first packet of a burst is a line at once, the rest one counted line when the interval ends, and again while the flood goes on', async () => {
    const { log, lines, nextLine } = recorded(40);
    log.note('a');
    assert.deepEqual(lines, ['ignored a data packet: a']);
    for (const reason of ['b', 'c', 'd']) log.note(reason);
    assert.equal(lines.length, 1, 'nothing more until the interval ends');
    await nextLine();
    assert.deepEqual(lines.slice(1), ['ignored 3 more data packets within 40 ms (the last: d)']);
    log.note('e');
    assert.equal(lines.length, 2, 'the flood went on into the next interval: still counted');
    await nextLine();
    assert.equal(lines[2], 'ignored 1 more data packet within 40 ms (the last: e)');
    log.close();
  });

  test('closing writes what is still counted, and nothing when there is none', () => {
    const { log, lines } = recorded(60_000);
    log.note('a');
    log.note('b');
    log.note('c');
    log.close();
    assert.deepEqual(lines, ['ignored a data packet: a', 'ignored 2 more data packets within 60 s (the last: c)']);
    log.close();
    assert.equal(lines.length, 2);
  });
});
