// The loopback room's signal protocol, without WebRTC: the join_request decoder and the pure
// builders of what livekit-client reads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ClientInfo,
  ClientInfo_SDK,
  DataPacket,
  DataPacket_Kind,
  JoinRequest,
  LeaveRequest_Action,
  ParticipantInfo_Kind,
  ParticipantInfo_State,
  SessionDescription,
  SignalResponse,
  SignalTarget,
  SipDTMF,
  TrackSource,
  TrackType,
} from '@livekit/protocol';
import {
  JoinRequestError,
  decodeJoinRequest,
  encodeJoinRequest,
  joinFromV0Query,
} from '../../src/emulator/room/protocol/join-request.js';
import {
  DisconnectReason,
  answer,
  isCandidateOn,
  joinResponse,
  leave,
  offer,
  parseCandidateInit,
  participantUpdate,
  agentInfo,
  pong,
  trickle,
  type AgentDescription,
} from '../../src/emulator/room/protocol/responses.js';
import {
  DTMF_CODES,
  growingPrefixes,
  readCallerPacket,
  transcriptionPackets,
} from '../../src/emulator/room/protocol/data-packets.js';
import { firstRecvonlyAudioMid } from '../../src/emulator/room/media/peer.js';

const agent: AgentDescription = {
  sid: 'PA_agent',
  identity: 'agent',
  name: 'Emulator agent',
  trackSid: 'TR_agentvoice',
  state: 'initializing',
  version: 1,
  joinedAtMs: 1_700_000_000_000,
};

/** What goes over the WebSocket: the client decodes exactly these bytes. */
function wire(response: SignalResponse): SignalResponse {
  return SignalResponse.fromBinary(response.toBinary());
}

describe('join_request', () => {
  const request = new JoinRequest({
    clientInfo: new ClientInfo({ sdk: ClientInfo_SDK.JS, version: '2.23.0', protocol: 17 }),
    reconnect: false,
    publisherOffer: new SessionDescription({ type: 'offer', sdp: 'v=0\r\n', id: 1 }),
  });

  test('decodes the gzip-compressed form livekit-client sends', () => {
    const decoded = decodeJoinRequest(encodeJoinRequest(request, 'gzip'));
    assert.equal(decoded.clientInfo?.version, '2.23.0');
    assert.equal(decoded.publisherOffer?.id, 1);
    assert.equal(decoded.publisherOffer?.sdp, 'v=0\r\n');
  });

  test('decodes the uncompressed form (browsers without CompressionStream)', () => {
    const decoded = decodeJoinRequest(
      encodeJoinRequest(new JoinRequest({ reconnect: true, participantSid: 'PA_x' }), 'none'),
    );
    assert.equal(decoded.reconnect, true);
    assert.equal(decoded.participantSid, 'PA_x');
  });

  test('refuses garbage with a typed error', () => {
    assert.throws(() => decodeJoinRequest('!!not-base64url-protobuf!!'), JoinRequestError);
  });

  test('v0: the join livekit-client describes in the query of /rtc, without an offer', () => {
    const join = joinFromV0Query(
      new URLSearchParams('access_token=t&reconnect=1&sid=PA_old&auto_subscribe=1&sdk=js&version=2.15.16&protocol=16'),
    );
    assert.equal(join.reconnect, true);
    assert.equal(join.participantSid, 'PA_old');
    assert.equal(join.connectionSettings?.autoSubscribe, true);
    assert.equal(join.clientInfo?.version, '2.15.16');
    assert.equal(join.clientInfo?.protocol, 16);
    assert.equal(join.publisherOffer, undefined);
    const fresh = joinFromV0Query(new URLSearchParams('access_token=t&auto_subscribe=0&protocol=x'));
    assert.deepEqual(
      [fresh.reconnect, fresh.connectionSettings?.autoSubscribe, fresh.clientInfo?.protocol],
      [false, false, 0],
    );
  });
});

describe('JoinResponse', () => {
  test('has a server version, the caller, and the agent as an AGENT with its audio track', () => {
    const response = wire(
      joinResponse({
        roomSid: 'RM_1',
        roomName: 'dial-1',
        human: { sid: 'PA_h', identity: 'caller', joinedAtMs: 0 },
        agent,
      }),
    );
    assert.equal(response.message.case, 'join');
    const join = response.message.value as import('@livekit/protocol').JoinResponse;
    assert.ok(join.serverVersion.length > 0, 'livekit-client refuses a server without a version');
    assert.ok((join.serverInfo?.version ?? '').length > 0);
    assert.equal(join.room?.name, 'dial-1');
    assert.equal(join.participant?.identity, 'caller');
    assert.equal(join.participant?.permission?.canPublish, true);
    assert.equal(join.participant?.permission?.canPublishData, true);
    assert.equal(join.iceServers.length, 0, 'no STUN/TURN: loopback only');
    assert.ok(join.pingInterval > 0 && join.pingTimeout > join.pingInterval);
    const [other] = join.otherParticipants;
    assert.equal(other?.kind, ParticipantInfo_Kind.AGENT);
    assert.equal(other?.attributes['lk.agent.state'], 'initializing');
    assert.equal(other?.tracks[0]?.sid, 'TR_agentvoice');
    assert.equal(other?.tracks[0]?.type, TrackType.AUDIO);
    assert.equal(other?.tracks[0]?.source, TrackSource.MICROPHONE);
  });

  test('has nobody else in the room when no agent joins (emu-no-agent)', () => {
    const response = wire(
      joinResponse({ roomSid: 'RM_1', roomName: 'dial-1', human: { sid: 'PA_h', identity: 'caller', joinedAtMs: 0 } }),
    );
    assert.equal(response.message.case === 'join' && response.message.value.otherParticipants.length, 0);
  });

  test('v1 has one connection (the publisher); v0 is told the subscriber connection is the primary one', () => {
    const human = { sid: 'PA_h', identity: 'caller', joinedAtMs: 0 };
    const v1 = wire(joinResponse({ roomSid: 'RM_1', roomName: 'dial-1', human, agent }));
    const v0 = wire(joinResponse({ roomSid: 'RM_1', roomName: 'dial-1', human, agent, subscriberPrimary: true }));
    assert.equal(v1.message.case === 'join' && v1.message.value.subscriberPrimary, false);
    assert.equal(v0.message.case === 'join' && v0.message.value.subscriberPrimary, true);
  });
});

describe('other signal responses', () => {
  test('an answer carries the offer id and the agent track for its mid', () => {
    const response = wire(answer({ sdp: 'v=0', id: 7, midToTrackId: { '0': 'TR_agentvoice' } }));
    assert.equal(response.message.case, 'answer');
    if (response.message.case !== 'answer') return;
    assert.equal(response.message.value.id, 7);
    assert.equal(response.message.value.type, 'answer');
    assert.deepEqual(response.message.value.midToTrackId, { '0': 'TR_agentvoice' });
  });

  test('a trickle is JSON candidateInit for the single (publisher) peer connection', () => {
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    };
    const response = wire(trickle(candidate));
    assert.equal(response.message.case, 'trickle');
    if (response.message.case !== 'trickle') return;
    assert.equal(response.message.value.target, SignalTarget.PUBLISHER);
    assert.deepEqual(parseCandidateInit(response.message.value.candidateInit), candidate);
  });

  test("v0: the room's subscriber offer, and candidates for the subscriber connection", () => {
    const response = wire(offer({ sdp: 'v=0', id: 1, midToTrackId: { '0': 'TR_agentvoice' } }));
    assert.equal(response.message.case, 'offer');
    if (response.message.case !== 'offer') return;
    assert.deepEqual(
      [response.message.value.type, response.message.value.id, response.message.value.midToTrackId],
      ['offer', 1, { '0': 'TR_agentvoice' }],
    );
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50001 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    };
    const sub = wire(trickle(candidate, SignalTarget.SUBSCRIBER));
    assert.equal(sub.message.case === 'trickle' && sub.message.value.target, SignalTarget.SUBSCRIBER);
  });

  test('a pong echoes the ping timestamp', () => {
    const response = wire(pong(123n, 456));
    assert.equal(response.message.case === 'pongResp' && response.message.value.lastPingTimestamp, 123n);
  });

  test('a leave disconnects for good, with the reason', () => {
    const response = wire(leave(DisconnectReason.ROOM_DELETED));
    assert.equal(response.message.case, 'leave');
    if (response.message.case !== 'leave') return;
    assert.equal(response.message.value.action, LeaveRequest_Action.DISCONNECT);
    assert.equal(response.message.value.reason, DisconnectReason.ROOM_DELETED);
    assert.equal(response.message.value.canReconnect, false);
  });

  test('a participant update carries the agent state and a growing version', () => {
    const response = wire(participantUpdate([agentInfo({ ...agent, state: 'speaking', version: 5 })]));
    assert.equal(response.message.case, 'update');
    if (response.message.case !== 'update') return;
    assert.equal(response.message.value.participants[0]?.attributes['lk.agent.state'], 'speaking');
    assert.equal(response.message.value.participants[0]?.version, 5);
  });

  test('the agent leaving is an update with it DISCONNECTED (livekit-client removes it), otherwise ACTIVE', () => {
    assert.equal(agentInfo(agent).state, ParticipantInfo_State.ACTIVE);
    const response = wire(participantUpdate([agentInfo({ ...agent, version: 6 }, { left: true })]));
    if (response.message.case !== 'update') return assert.fail(`got ${response.message.case}`);
    assert.equal(response.message.value.participants[0]?.state, ParticipantInfo_State.DISCONNECTED);
    assert.equal(response.message.value.participants[0]?.identity, agent.identity);
  });
});

describe('ICE candidates', () => {
  test('only UDP host candidates on 127.0.0.1 pass, both ways', () => {
    const loopback = ['127.0.0.1'];
    assert.equal(isCandidateOn('candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host generation 0', loopback), true);
    assert.equal(isCandidateOn('candidate:2 1 udp 2122260223 10.0.0.5 50000 typ host', loopback), false);
    assert.equal(isCandidateOn('candidate:3 1 udp 2122262783 ::1 50001 typ host', loopback), false);
    assert.equal(isCandidateOn('candidate:4 1 udp 2122260223 3f1c4b2e-1234.local 50000 typ host', loopback), false);
    assert.equal(isCandidateOn('candidate:5 1 tcp 1518280447 127.0.0.1 9 typ host tcptype active', loopback), false);
    assert.equal(isCandidateOn('', loopback), true, 'end-of-candidates passes');
    // A room listening on another address takes the candidates on it, and still no other.
    const veth = ['10.77.0.1'];
    assert.equal(isCandidateOn('candidate:6 1 udp 2122260223 10.77.0.1 50000 typ host', veth), true);
    assert.equal(isCandidateOn('candidate:7 1 udp 2122260223 10.77.0.2 50000 typ host', veth), false);
    assert.equal(isCandidateOn('candidate:8 1 udp 2122260223 127.0.0.1 50000 typ host', veth), false);
  });

  test('malformed candidateInit is ignored', () => {
    assert.equal(parseCandidateInit('not json'), undefined);
    assert.equal(parseCandidateInit('{"sdpMid":"0"}'), undefined);
  });
});

describe('transcription text streams', () => {
  test('header, chunk and trailer on the reliable channel with the lk.* attributes', () => {
    const packets = transcriptionPackets({
      streamId: 'TS_1',
      segmentId: 'SG_1',
      trackSid: 'TR_agentvoice',
      senderIdentity: 'agent',
      text: 'Hello there',
      final: false,
      timestampMs: 1000,
    }).map((packet) => DataPacket.fromBinary(packet.toBinary()));
    assert.deepEqual(
      packets.map((packet) => packet.value.case),
      ['streamHeader', 'streamChunk', 'streamTrailer'],
    );
    for (const packet of packets) {
      assert.equal(packet.kind, DataPacket_Kind.RELIABLE);
      assert.equal(packet.participantIdentity, 'agent');
    }
    const [header, chunk, trailer] = packets;
    assert.ok(header?.value.case === 'streamHeader');
    assert.equal(header.value.value.topic, 'lk.transcription');
    assert.equal(header.value.value.streamId, 'TS_1');
    assert.equal(header.value.value.totalLength, 11n);
    assert.equal(header.value.value.contentHeader.case, 'textHeader');
    assert.deepEqual(header.value.value.attributes, {
      'lk.transcribed_track_id': 'TR_agentvoice',
      'lk.segment_id': 'SG_1',
      'lk.transcription_final': 'false',
    });
    assert.ok(chunk?.value.case === 'streamChunk');
    assert.equal(new TextDecoder().decode(chunk.value.value.content), 'Hello there');
    assert.ok(trailer?.value.case === 'streamTrailer');
    assert.equal(trailer.value.value.reason, '', 'an empty reason: the stream completed');
  });

  test('a final segment says so', () => {
    const [header] = transcriptionPackets({
      streamId: 'TS_2',
      segmentId: 'SG_1',
      trackSid: 'TR_a',
      senderIdentity: 'agent',
      text: 'x',
      final: true,
      timestampMs: 0,
    });
    assert.ok(header?.value.case === 'streamHeader');
    assert.equal(header.value.value.attributes['lk.transcription_final'], 'true');
  });

  test('interim texts grow word by word up to the whole line', () => {
    assert.deepEqual(growingPrefixes('Got it.  Tell me more.'), [
      'Got',
      'Got it.',
      'Got it. Tell',
      'Got it. Tell me',
      'Got it. Tell me more.',
    ]);
  });
});

describe("the caller's keypad tones (sipDtmf)", () => {
  /** What livekit-client's `publishDtmf(code, digit)` puts on the reliable channel. */
  const dtmf = (code: number, digit: string) =>
    new DataPacket({
      kind: DataPacket_Kind.RELIABLE,
      value: { case: 'sipDtmf', value: new SipDTMF({ code, digit }) },
    }).toBinary();

  test('every keypad key with its RFC 4733 code is a digit for the agent', () => {
    assert.deepEqual(Object.keys(DTMF_CODES), [...'0123456789', '*', '#', 'A', 'B', 'C', 'D']);
    for (const [digit, code] of Object.entries(DTMF_CODES)) {
      assert.deepEqual(readCallerPacket(dtmf(code, digit)), { kind: 'keypad', digit });
    }
    assert.deepEqual(readCallerPacket(dtmf(10, '*')), { kind: 'keypad', digit: '*' });
  });

  test('a digit that is no key, or whose code disagrees, and bytes that are no DataPacket are invalid, with the reason', () => {
    for (const [code, digit, reason] of [
      [1, '12', /"12" is not 0-9/],
      [0, '', /"" is not 0-9/],
      [5, 'x', /"x" is not/],
      [0, 'a', /"a" is not/],
      [5, '#', /# came with code 5, not 11/],
      [0, 'toString', /"toString" is not/],
    ] as const) {
      const read = readCallerPacket(dtmf(code, digit));
      assert.equal(read.kind, 'invalid', `${code} ${digit}`);
      assert.match(read.kind === 'invalid' ? read.reason : '', reason);
    }
    const garbage = readCallerPacket(new Uint8Array([0xff, 0xff, 0xff, 0x01]));
    assert.deepEqual(garbage, { kind: 'invalid', reason: '4 bytes that are not a DataPacket' });
  });

  test('other DataPackets (chat, streams, user data) are not the keypad', () => {
    const [header] = transcriptionPackets({
      streamId: 'TS_9',
      segmentId: 'SG_9',
      trackSid: 'TR_a',
      senderIdentity: 'caller',
      text: 'hi',
      final: true,
      timestampMs: 0,
    });
    assert.deepEqual(readCallerPacket(header?.toBinary() ?? new Uint8Array()), { kind: 'other' });
    assert.deepEqual(readCallerPacket(new Uint8Array()), { kind: 'other' }, 'an empty packet carries nothing');
  });
});

describe('agent track placement', () => {
  test('the agent voice goes into the first audio section the browser offered as recvonly', () => {
    const sdp = [
      'v=0',
      'o=- 1 2 IN IP4 127.0.0.1',
      's=-',
      't=0 0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=mid:0',
      'a=sendonly',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=mid:1',
      'a=recvonly',
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'a=mid:2',
      'a=recvonly',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=mid:3',
      'a=recvonly',
    ].join('\r\n');
    assert.equal(firstRecvonlyAudioMid(sdp), '1');
    assert.equal(firstRecvonlyAudioMid('v=0\r\nm=video 9 x 96\r\na=mid:0\r\na=recvonly'), null);
  });
});
