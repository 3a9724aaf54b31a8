// Devices, the session's side: the microphone and speaker the visitor chose (in a call and for
// the next ones), a microphone that went away replaced by the default one, and, with
// `rememberDevices`, the choice kept for later visits. A chunk of its own: devices-side.ts (call
// chunk) loads it when a device is chosen, a call starts with `rememberDevices`, or the
// microphone in use may have gone.
import { isOver, microphoneInUse, type ActiveCall } from '../../call/active-call.js';
import { CallError } from '../../call/errors.js';
import { CallDeviceEvent } from '../../call/events.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import { isReleased } from '../../call/states.js';
import type { CallDevice } from '../../call/types.js';
import { canChooseSpeaker, deviceLabel, listDevices, openMicrophone, readRemembered, remember } from './devices.js';

export class DevicesFeature implements SessionFeature {
  readonly #context: FeatureContext;
  /** The microphone and speaker the visitor chose (null: the browser's default). */
  #microphoneId: string | null = null;
  #speakerId: string | null = null;
  /** The stored choice was read (`rememberDevices`), once per session. */
  #rememberedRead = false;
  /** Per call: microphone changes run one after another, so the last one asked for is the one in use. */
  readonly #changes = new WeakMap<ActiveCall, Promise<void>>();

  constructor(context: FeatureContext) {
    this.#context = context;
  }

  /** The microphone in use during a call (its `deviceId`), otherwise the one chosen for the next call. */
  get microphoneId(): string | null {
    return microphoneInUse(this.#context.call) ?? this.#microphoneId;
  }

  get speakerId(): string | null {
    return this.#speakerId;
  }

  async setMicrophone(deviceId: string): Promise<void> {
    if (typeof deviceId !== 'string') throw new TypeError('setMicrophone: deviceId must be a string');
    const call = this.#context.call;
    this.#microphoneId = deviceId || null;
    this.#remember();
    if (call && call.media && call.mic && !isOver(call)) {
      try {
        await this.#switchMicrophone(call, deviceId, false);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (this.#context.isLive(call)) this.#context.recoverable('device_failed', message);
        throw error;
      }
      return;
    }
    // Before the media is up the call opens it when it joins (`joined`), and says so then.
    if (call && !isOver(call)) return;
    // Between calls: the next call opens it.
    const label = await deviceLabel('audioinput', deviceId);
    this.#context.emit(new CallDeviceEvent({ kind: 'audioinput', deviceId, label, fallback: false }));
  }

  async setSpeaker(deviceId: string): Promise<void> {
    if (typeof deviceId !== 'string') throw new TypeError('setSpeaker: deviceId must be a string');
    if (!canChooseSpeaker()) {
      throw new CallError('device_failed', 'setSpeaker: this browser cannot choose where audio plays');
    }
    const call = this.#context.call;
    if (call && !isReleased(call.phase)) {
      try {
        await this.#routeSpeaker(call, deviceId);
      } catch (error) {
        const message = `could not play on that speaker (${error instanceof Error ? error.name : 'error'})`;
        this.#context.recoverable('device_failed', message);
        throw new CallError('device_failed', message, { cause: error });
      }
    }
    this.#speakerId = deviceId || null;
    this.#remember();
    const label = await deviceLabel('audiooutput', deviceId);
    this.#context.emit(new CallDeviceEvent({ kind: 'audiooutput', deviceId, label, fallback: false }));
  }

  // ---- the call's steps ----

  /** Read here, not in `start()`: a `call-state` listener of `starting` may still set `rememberDevices` (the element does). */
  started(call: ActiveCall): void {
    if (this.#context.options.rememberDevices && !this.#rememberedRead) {
      this.#rememberedRead = true;
      const stored = readRemembered();
      this.#microphoneId ??= stored.microphone ?? null;
      this.#speakerId ??= stored.speaker ?? null;
    }
    if (this.#speakerId) void this.#routeSpeaker(call, this.#speakerId).catch(() => undefined);
  }

  microphoneOpened(call: ActiveCall): void {
    call.mic?.addEventListener('ended', this.#onMicrophoneEnded);
    navigator.mediaDevices.addEventListener('devicechange', this.#onDeviceChange);
  }

  /** A microphone chosen before (remembered, or while the call was setting up) replaces the default one. */
  joined(call: ActiveCall): Promise<void> | undefined {
    const chosen = this.#microphoneId;
    if (!chosen || chosen === call.mic?.getSettings().deviceId) return undefined;
    return this.#switchMicrophone(call, chosen, false).catch(() => undefined);
  }

  released(call: ActiveCall): void {
    navigator.mediaDevices?.removeEventListener('devicechange', this.#onDeviceChange);
    call.mic?.removeEventListener('ended', this.#onMicrophoneEnded);
  }

  /**
   * Loaded mid-call by what the call chunk heard (devices-side.ts): the microphone in use ended,
   * or a device came or went and it may be the one that went.
   */
  recheck(call: ActiveCall): void {
    const mic = call.mic;
    if (mic?.readyState === 'ended') this.#microphoneLost(call, mic);
    else this.#onDeviceChange();
  }

  // ---- helpers ----

  /** The visitor's choice, stored only when the site asked for it (`rememberDevices`). */
  #remember(): void {
    if (!this.#context.options.rememberDevices) return;
    remember({
      ...(this.#microphoneId ? { microphone: this.#microphoneId } : {}),
      ...(this.#speakerId ? { speaker: this.#speakerId } : {}),
    });
  }

  /** Plays the call's agent on `deviceId` (`''`: the default); rejects where the browser refuses. */
  async #routeSpeaker(call: ActiveCall, deviceId: string): Promise<void> {
    if (!canChooseSpeaker()) return;
    await (call.audio.element as HTMLAudioElement & { setSinkId(id: string): Promise<void> }).setSinkId(deviceId);
  }

  /**
   * Sends the microphone `deviceId` names instead of the one in use (`fallback`: that one went
   * away, and `''` is the default). Changes run one after another; each fires `call-device`.
   */
  #switchMicrophone(call: ActiveCall, deviceId: string, fallback: boolean): Promise<void> {
    const run = async (): Promise<void> => {
      const old = call.mic;
      if (!this.#context.isLive(call) || !old || !call.media) return;
      let track: MediaStreamTrack;
      try {
        track = await openMicrophone(deviceId);
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'error';
        throw new CallError('device_failed', `could not open the microphone (${reason})`, { cause: error });
      }
      const media = call.media;
      if (!this.#context.isLive(call) || !media) {
        track.stop();
        return;
      }
      const muted = this.#context.muted;
      track.enabled = !muted;
      old.removeEventListener('ended', this.#onMicrophoneEnded);
      track.addEventListener('ended', this.#onMicrophoneEnded);
      call.mic = track;
      await media.replaceMicrophone(track, muted);
      old.stop();
      const detail: CallDevice = {
        kind: 'audioinput',
        deviceId: track.getSettings().deviceId ?? deviceId,
        label: track.label,
        fallback,
      };
      this.#context.emit(new CallDeviceEvent(detail));
    };
    const change = (this.#changes.get(call) ?? Promise.resolve()).then(run, run);
    this.#changes.set(
      call,
      change.catch(() => undefined),
    );
    return change;
  }

  /** The microphone in use went away: the call moves to the default one, or ends when there is none. */
  #microphoneLost(call: ActiveCall, lost: MediaStreamTrack): void {
    if (!this.#context.isLive(call) || call.mic !== lost) return;
    const end = (): void =>
      this.#context.end(call, 'microphone-lost', {
        message: 'the microphone stopped (unplugged or taken by another app)',
      });
    if (!call.media) {
      end();
      return;
    }
    this.#switchMicrophone(call, '', true).then(() => {
      if (call.mic === lost) end();
    }, end);
  }

  readonly #onMicrophoneEnded = (event: Event): void => {
    const call = this.#context.call;
    if (call?.mic && event.target === call.mic) this.#microphoneLost(call, call.mic);
  };

  /** A device came or went: the microphone in use may be the one that went (a Bluetooth headset dropped). */
  readonly #onDeviceChange = (): void => {
    const call = this.#context.call;
    const mic = call?.mic;
    const id = mic?.getSettings().deviceId;
    if (!call || !mic || !id || isOver(call)) return;
    void listDevices('audioinput').then((inputs) => {
      if (inputs.length > 0 && !inputs.some((device) => device.deviceId === id)) this.#microphoneLost(call, mic);
    });
  };
}
