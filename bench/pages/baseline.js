// The baseline: a bare livekit-client page doing the least a call needs, with no widget: the
// microphone request, the two companion round trips, Room.connect, the microphone published,
// startDialSession (the service's agent speaks only after it; sent at once, without waiting for
// connectSession's GLOBAL_CALL_CONNECT as the widget does), the agent's first audio.
// `?livekit=<url>`: the same page as a site that loads livekit-client only on the click would write
// it (a minified bundle, imported when the clock starts, beside the microphone request); without it,
// livekit-client is loaded with the page, before any clock starts.
const lazyUrl = new URLSearchParams(location.search).get('livekit');
const loaded = lazyUrl ? null : import('/node_modules/livekit-client/dist/livekit-client.esm.mjs');

window.baselineCall = async (agent) => {
  const bench = window.__bench;
  // The clock starts before the microphone request, as the widget's starts at the click that makes
  // it (a prompt the bench simulates, `window.__bench.promptMs`, delays both alike).
  const start = performance.now();
  const livekit = loaded ?? import(lazyUrl);
  // Its failure is the call's, reported where it is awaited.
  livekit.catch(() => undefined);
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const mic = stream.getAudioTracks()[0];
  const t0 = performance.now();
  const dialResponse = await fetch('/api/voice-call/dials', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent }),
  });
  const dial = await dialResponse.json();
  const t1 = performance.now();
  const tokenResponse = await fetch(`/api/voice-call/dials/${dial.dialId}/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dial.handle}` },
  });
  const token = await tokenResponse.json();
  const t2 = performance.now();
  const { Room, RoomEvent } = await livekit;
  const room = new Room();
  let agentAt = null;
  room.on(RoomEvent.ParticipantConnected, () => (agentAt ??= performance.now()));
  room.on(RoomEvent.TrackSubscribed, (track) => {
    if (track.kind === 'audio') document.body.append(track.attach());
  });
  await room.connect(token.serverUrl, token.participantToken);
  const t3 = performance.now();
  if (room.remoteParticipants.size > 0) agentAt ??= t3;
  const published = room.localParticipant.publishTrack(mic);
  const started = fetch(token.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.dialToken}` },
    body: JSON.stringify({
      operationName: 'StartDialSession',
      query: 'mutation StartDialSession($sessionId: ID!) { startDialSession(dialSessionId: $sessionId) }',
      variables: { sessionId: token.sessionId },
    }),
  });
  // Checked every 5 ms, as the bench checks the widget's page (time-to-talk.ts WATCH_MS).
  const deadline = performance.now() + 20000;
  while (!('firstAudio' in bench.marks) && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 5));
  await published.catch(() => undefined);
  await started.catch(() => undefined);
  const result = {
    micMs: t0 - start,
    dialMs: t1 - t0,
    tokenMs: t2 - t1,
    connectMs: t3 - t2,
    signalMs: 'signalOpened' in bench.marks ? bench.marks.signalOpened - t2 : null,
    agentMs: agentAt === null ? null : agentAt - t2,
    firstAudioMs: 'firstAudio' in bench.marks ? bench.marks.firstAudio - t2 : null,
    totalMs: 'firstAudio' in bench.marks ? bench.marks.firstAudio - start : null,
  };
  await fetch(`/api/voice-call/dials/${dial.dialId}/hangup`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dial.handle}` },
  });
  await room.disconnect();
  mic.stop();
  for (const element of document.querySelectorAll('audio')) element.remove();
  return result;
};
await loaded;
window.dispatchEvent(new Event('baseline-ready'));
window.baselineReady = true;
