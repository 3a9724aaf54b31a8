// A hand-written page: what a site would write from the service's documented browser flow, in the
// obvious order, one step after the other: the microphone (in the click), create the dial, get its
// token, open the GraphQL session (graphql-transport-ws: connection_init, then the ConnectSession
// subscription), join the room and publish the microphone, then on GLOBAL_CALL_CONNECT start the
// session (startDialSession), and the agent speaks. livekit-client is loaded with the page.
import { Room, RoomEvent } from '/node_modules/livekit-client/dist/livekit-client.esm.mjs';

const CONNECT_SESSION =
  'subscription ConnectSession($sessionId: ID!) { connectSession(sessionId: $sessionId) { messageType content { __typename ... on DialsUpdatedMessage { contactId dials { id status answerType callDispositionId systemResultType toNumber } contactComplete } ... on DialConnectMessage { dialId } ... on SessionUpdatedMessage { dialSession { id status } reason } } } }';
const START_DIAL_SESSION = 'mutation StartDialSession($sessionId: ID!) { startDialSession(dialSessionId: $sessionId) }';

const button = document.querySelector('#call');
const params = new URLSearchParams(location.search);
const endpoint = params.get('endpoint') ?? '/api/voice-call';
const agent = params.get('agent') ?? 'emu-quick';
let current = null;

/** Opens the GraphQL socket and the ConnectSession subscription; resolves once the service acknowledged it. */
function openSession(graphqlUrl, dialToken, sessionId, onConnect) {
  const socket = new WebSocket(graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authToken: dialToken } }));
    socket.onerror = () => reject(new Error('GraphQL socket failed'));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'connection_ack') {
        socket.send(
          JSON.stringify({
            id: '1',
            type: 'subscribe',
            payload: { operationName: 'ConnectSession', query: CONNECT_SESSION, variables: { sessionId } },
          }),
        );
        resolve(socket);
      } else if (
        message.type === 'next' &&
        message.payload?.data?.connectSession?.messageType === 'GLOBAL_CALL_CONNECT'
      ) {
        onConnect();
      } else if (message.type === 'ping') {
        socket.send(JSON.stringify({ type: 'pong' }));
      }
    };
  });
}

async function call() {
  const bench = window.__bench;
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const mic = stream.getAudioTracks()[0];
  const dial = await (
    await fetch(`${endpoint}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent }),
    })
  ).json();
  const token = await (
    await fetch(`${endpoint}/dials/${dial.dialId}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${dial.handle}` },
    })
  ).json();
  let connected;
  const globalConnect = new Promise((resolve) => (connected = resolve));
  const socket = await openSession(token.graphqlUrl, token.dialToken, token.sessionId, () => connected());
  bench.mark('sessionOpen');
  const room = new Room();
  room.on(RoomEvent.ParticipantConnected, () => bench.mark('agentPresent'));
  room.on(RoomEvent.TrackSubscribed, (track) => {
    if (track.kind === 'audio') document.body.append(track.attach());
  });
  current = { dial, room, socket, mic };
  await room.connect(token.serverUrl, token.participantToken);
  if (room.remoteParticipants.size > 0) bench.mark('agentPresent');
  // Published beside the wait: the agent needs the session started, not the microphone.
  const published = room.localParticipant.publishTrack(mic);
  await globalConnect;
  bench.mark('globalConnect');
  await fetch(token.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.dialToken}` },
    body: JSON.stringify({
      operationName: 'StartDialSession',
      query: START_DIAL_SESSION,
      variables: { sessionId: token.sessionId },
    }),
  });
  bench.mark('started');
  await published;
}

window.handHangup = async () => {
  if (!current) return;
  const { dial, room, socket, mic } = current;
  current = null;
  await fetch(`${endpoint}/dials/${dial.dialId}/hangup`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dial.handle}` },
  });
  socket.close();
  await room.disconnect();
  mic.stop();
  for (const element of document.querySelectorAll('audio')) element.remove();
};

button.addEventListener('click', () => {
  call().catch((error) => {
    window.__bench.mark('ended');
    window.__bench.endReason = String(error);
  });
});
button.disabled = false;
window.handReady = true;
