// Agents created through the API, dialled and joined through the real media room (a plain
// WebSocket standing in for livekit-client's signal channel): the room follows the scenario the
// created agent's `metadata.scenario` names. Only agent-less scenarios here: an agent that joins
// loads native WebRTC, which crashes Node at exit (the agents' audio is tested in Chromium); the
// emu-demo default for an agent without a scenario is checked on the dial's session in
// api-client-agents.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JoinRequest, LeaveRequest, SignalRequest, SignalResponse } from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { VoiceAgentApi } from '../../src/api/client.js';
import { livekitCredentials } from '../support/media-credentials.js';

/** Joins the dial's room and answers the identities of the other participants it is told about, within `ms`. */
async function othersInRoom(
  emu: Emulator,
  token: string,
  ms: number,
): Promise<{ identities: Set<string>; names: string[] }> {
  const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
  const ws = new WebSocket(`${emu.mediaUrl}/rtc/v1?${query}`);
  const identities = new Set<string>();
  const names: string[] = [];
  ws.on('message', (data: Buffer) => {
    const { message } = SignalResponse.fromBinary(data);
    const participants =
      message.case === 'join'
        ? message.value.otherParticipants
        : message.case === 'update'
          ? message.value.participants
          : [];
    for (const participant of participants) {
      identities.add(participant.identity);
      names.push(participant.name);
    }
  });
  await new Promise((resolve) => ws.once('open', resolve));
  await new Promise((resolve) => setTimeout(resolve, ms)); // a window in which an agent that joins would appear
  ws.send(new SignalRequest({ message: { case: 'leave', value: new LeaveRequest({}) } }).toBinary());
  await new Promise((resolve) => ws.once('close', resolve));
  return { identities, names };
}

describe('API-created agents in the media room', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  before(async () => {
    emu = await startEmulator({ logger: false, roomTimings: { leaveCloseDelayMs: 20 } });
    api = new VoiceAgentApi({ baseUrl: emu.apiUrl, apiKey: emu.apiKey });
  });
  after(() => emu.close());

  const create = (name: string, metadata: Record<string, unknown>) =>
    api.agents.create({
      name,
      defaultVoiceId: 'emu-voice-espeak-en',
      defaultVersionedPrompt: { aiModelId: 'emu-model-small', agentType: 'STANDARD', name: 'v1', prompt: 'Hi' },
      metadata,
    });

  test('an agent naming emu-no-agent: the room opens, the caller is in progress, no agent ever joins; leaving ends USER_HANGUP', async () => {
    const absent = await create('Absent agent', { scenario: 'emu-no-agent', team: 'sales' });
    const dial = await api.dials.create({ callAgentId: absent.id, browserCall: true });
    const dialToken = (await api.dials.token(dial.dialId)).dialToken;
    assert.equal((await api.dials.get(dial.dialId)).status, 'ringing');
    const { token } = await livekitCredentials(emu.graphqlUrl, dialToken, dial.sessionId);
    const room = await othersInRoom(emu, token, 1200);
    assert.equal(room.identities.size, 0, `no agent joins, got ${room.names.join(', ')}`);
    const ended = await api.dials.get(dial.dialId);
    assert.deepEqual([ended.status, ended.systemResultType], ['completed', 'USER_HANGUP']);
    assert.equal(ended.agent?.id, absent.id);
    assert.notEqual(ended.startedAt, null);
  });

  test('an agent naming emu-busy never gets a room: the dial fails RATE_LIMITED and its token is refused (409)', async () => {
    const busy = await create('Busy agent', { scenario: 'emu-busy' });
    const dial = await api.dials.create({ callAgentId: busy.id, browserCall: true });
    await assert.rejects(api.dials.token(dial.dialId), (error: { status?: number }) => error.status === 409);
    assert.equal((await api.dials.get(dial.dialId)).systemResultType, 'RATE_LIMITED');
  });
});
