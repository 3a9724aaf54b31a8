// A call's setup, in order: the features' start, the microphone (the dial beside it when the
// microphone was granted before), the dial, its token, `connecting`, the media chunk, the room
// and the service's session, the features' join, then the wait for the agent. The service's GraphQL
// socket opens beside the create when the companion named its URL ahead.
import { isOver, type ActiveCall } from './active-call.js';
import type { CallHost } from './call-host.js';
import { mediaCallbacks, serviceCallbacks } from './call-signals.js';
import type { CreatedDial } from './companion-client.js';
import { microphoneEnding } from './endings.js';
import { setupFailure } from './error-codes.js';
import { CallError, CompanionError } from './errors.js';
import { joinMedia } from './join-media.js';
import { microphoneGranted } from './microphone-permission.js';
import { preconnect } from './preconnect.js';
import type { MediaModule } from './media-loader.js';

export async function runSetup(
  host: CallHost,
  call: ActiveCall,
  microphone: Promise<MediaStream>,
  mediaModule: Promise<MediaModule>,
): Promise<void> {
  const { signal } = call.controller;
  for (const feature of host.features) feature.started?.(call);
  // A visitor who granted the microphone before (a returning visitor) cannot refuse it now: the
  // dial is created while getUserMedia resolves. Otherwise the microphone comes first, so no dial
  // is ever created for a visitor who refuses.
  let created: Promise<CreatedDial> | null = null;
  if ((await microphoneGranted(microphone)) && !isOver(call)) created = createDial(call, mediaModule);
  let stream: MediaStream;
  try {
    stream = await microphone;
  } catch (error) {
    const { ending, message } = microphoneEnding(error);
    await host.end(call, ending, { message });
    return;
  }
  const [mic, ...extra] = stream.getAudioTracks();
  for (const track of [...extra, ...stream.getVideoTracks()]) track.stop();
  // Chromium keeps the getUserMedia promise, and with it this stream, for the page's life: an
  // empty stream keeps nothing of the call (its track, and the streams the track joins later).
  for (const track of stream.getTracks()) stream.removeTrack(track);
  if (isOver(call) || !mic) {
    mic?.stop();
    await host.end(call, 'microphone-unavailable', { message: 'no microphone track' });
    return;
  }
  call.mic = mic;
  mic.enabled = !host.muted;
  for (const feature of host.features) feature.microphoneOpened?.(call);
  // The room is made while the dial's request is out (once the media chunk is in), not after its
  // answer; the call's end lets go of it.
  const room = mediaModule.then((module) =>
    module.prepareMedia({ signal, callbacks: mediaCallbacks(host, call), call: call.options }),
  );
  // Its failure (the chunk's load, the room's making) is the join's, reported there.
  room.catch(() => undefined);

  try {
    const dial = await (created ?? createDial(call, mediaModule));
    if (isOver(call)) return;
    // The create's answer carries the media credentials; the token route only when it did not. A
    // dial the service ended at once (busy) ends here as the token route's 409 would end it, without
    // a refused request in the site's console.
    if (dial.ended) {
      throw new CompanionError('duplicate_request', 'the dial had already ended when it was created', {
        status: 409,
      });
    }
    const token = dial.media ?? (await call.companion.token(dial, signal, call.resumed?.leftAt));
    if (isOver(call)) return;
    host.enter(call, 'connecting');
    const module = await mediaModule.catch((error: unknown) => {
      throw new CallError('media_failed', 'could not load the media library (livekit-client)', { cause: error });
    });
    if (isOver(call)) return;
    const joining = joinMedia(module, await room, {
      token,
      dialId: dial.dialId,
      microphone: mic,
      muted: host.muted,
      options: call.options,
      service: serviceCallbacks(host, call),
    });
    call.service = joining.service;
    const media = await joining.media;
    // The features the options ask for are in before the call is up (loading since the session was
    // made, beside the join): a page left right after the connect finds `persist` ready to leave. A
    // chunk that stalls holds the call for one request's timeout at most.
    let stalled: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      host.featuresLoaded(),
      new Promise<void>((resolve) => (stalled = setTimeout(resolve, call.options.requestTimeoutMs))),
    ]);
    clearTimeout(stalled);
    if (isOver(call)) {
      void media.disconnect();
      return;
    }
    call.media = media;
    call.service?.roomJoined();
    // A mute while the room was connecting changed only the raw track.
    await media.setMuted(host.muted);
    if (isOver(call)) return;
    for (const feature of host.features) {
      const joined = feature.joined?.(call);
      if (!joined) continue;
      await joined;
      if (isOver(call)) return;
    }
    // The agent gets `agentTimeoutMs` from the room being up. Joining the room has
    // livekit-client's own timeouts (a failed join ends as setup-failed / media_failed), so the
    // two never race to name the end.
    host.startTimer(call, call.options.agentTimeoutMs, () => void host.end(call, 'agent-timeout'));
    host.maybeConnected(call);
  } catch (error) {
    if (isOver(call)) return;
    await host.end(call, 'setup-failed', setupFailure(error));
  }
}

/**
 * `POST /dials`, once per call; `call.dial` holds the dial (without its media credentials) as soon
 * as it answers. Beside it the service's GraphQL socket opens, once the companion has named its URL
 * (`GET /service`, asked on intent) and the media chunk is in, if the call is still waiting for
 * the create then: the session takes it (media/service-session.ts `openEarlySocket`).
 */
function createDial(call: ActiveCall, mediaModule: Promise<MediaModule>): Promise<CreatedDial> {
  call.companion.serviceUrl().then(
    (url) => {
      if (!url || call.phase !== 'starting') return;
      // The HTTP connection for the session's mutations (the warm query, startDialSession) is
      // opened while the create is out, the media chunk in or not: after the create's answer it
      // would be one more round trip before the agent's first word. On the click, not on intent: a
      // pointer passing over the button does not reach the service.
      preconnect(url);
      mediaModule.then(
        (media) => {
          if (call.phase === 'starting') media.openEarlySocket(url);
        },
        () => undefined,
      );
    },
    () => undefined,
  );
  // A call resumed from an earlier page has its dial; the token route gives it new media credentials.
  if (call.resumed && call.dial) return Promise.resolve({ ...call.dial });
  // Not tied to the call's signal: once sent, a dial may exist, and only its answer lets us hang it up.
  const request = call.companion
    .createDial(
      { agent: call.options.agent || undefined, inputs: call.options.inputs || undefined },
      call.idempotencyKey,
      new AbortController().signal,
    )
    .then((created) => {
      call.dial = {
        dialId: created.dialId,
        handle: created.handle,
        ...(created.transfer ? { transfer: true } : {}),
      };
      return created;
    });
  call.dialRequest = request.catch(() => null);
  return request;
}
