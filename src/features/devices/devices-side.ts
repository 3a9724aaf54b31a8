// Devices, the part of the session's side every call carries (call chunk): the choice as the
// session's getters read it and, while nothing has asked for more, two listeners on the
// microphone in use. The rest (devices-feature.ts: choosing a microphone or speaker, a microphone
// that went away, `rememberDevices`) is a chunk of its own, loaded on the first `setMicrophone`
// or `setSpeaker` (the element's menu asks for them), as a call starts with `rememberDevices`, or
// when the microphone in use ends or a device comes or goes. A call that never touches a device
// downloads none of it.
import { microphoneInUse, type ActiveCall } from '../../call/active-call.js';
import { CallError } from '../../call/errors.js';
import { lazyChunk } from '../../call/lazy-chunk.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import type { DevicesFeature } from './devices-feature.js';

const chunk = lazyChunk(() => import('./devices-chunk.js'));

/** Why a call whose microphone ended ends, when no other one can be opened (devices-feature.ts says it too). */
const MICROPHONE_STOPPED = 'the microphone stopped (unplugged or taken by another app)';

/** How the rest is loaded: the devices chunk (a test may give another). */
export type DevicesLoader = () => Promise<{ DevicesFeature: typeof DevicesFeature }>;

export class DevicesSide implements SessionFeature {
  readonly #context: FeatureContext;
  readonly #loadChunk: DevicesLoader;
  #feature: DevicesFeature | null = null;
  /** The call whose microphone the listeners watch until the chunk has loaded. */
  #watched: ActiveCall | null = null;

  constructor(context: FeatureContext, load: DevicesLoader = () => chunk.load()) {
    this.#context = context;
    this.#loadChunk = load;
  }

  /** The microphone in use during a call (its `deviceId`), otherwise the one chosen for the next call. */
  get microphoneId(): string | null {
    return this.#feature ? this.#feature.microphoneId : (microphoneInUse(this.#context.call) ?? null);
  }

  get speakerId(): string | null {
    return this.#feature?.speakerId ?? null;
  }

  setMicrophone(deviceId: string): Promise<void> {
    return this.#load().then((feature) => feature.setMicrophone(deviceId));
  }

  setSpeaker(deviceId: string): Promise<void> {
    return this.#load().then((feature) => feature.setSpeaker(deviceId));
  }

  // ---- the call's steps: the feature's once it has loaded ----

  started(call: ActiveCall): void {
    if (this.#feature) this.#feature.started(call);
    // The remembered choice applies from this call's start: the chunk comes beside the setup.
    else if (this.#context.options.rememberDevices) this.#load().catch(() => undefined);
  }

  microphoneOpened(call: ActiveCall): void {
    if (this.#feature) return this.#feature.microphoneOpened(call);
    this.#unwatch();
    this.#watched = call;
    call.mic?.addEventListener('ended', this.#onChange);
    navigator.mediaDevices.addEventListener('devicechange', this.#onChange);
  }

  joined(call: ActiveCall): Promise<void> | undefined {
    return this.#feature?.joined(call);
  }

  released(call: ActiveCall): void {
    if (this.#watched === call) this.#unwatch();
    this.#feature?.released(call);
  }

  // ---- helpers ----

  /** The feature, its chunk loaded first; it takes up the current call where the listeners leave it. */
  #load(): Promise<DevicesFeature> {
    if (this.#feature) return Promise.resolve(this.#feature);
    return this.#loadChunk().then(
      (module) => this.#feature ?? this.#takeUp(new module.DevicesFeature(this.#context)),
      (error: unknown) => {
        throw new CallError('device_failed', 'could not load the devices code', { cause: error });
      },
    );
  }

  /** The loaded feature steps into the current call as if it had been there from its start. */
  #takeUp(feature: DevicesFeature): DevicesFeature {
    this.#feature = feature;
    this.#unwatch();
    const call = this.#context.call;
    if (!call || !this.#context.isLive(call)) return feature;
    feature.started(call);
    if (call.mic) {
      feature.microphoneOpened(call);
      feature.recheck(call);
    }
    if (call.media) void feature.joined(call);
    return feature;
  }

  #unwatch(): void {
    this.#watched?.mic?.removeEventListener('ended', this.#onChange);
    this.#watched = null;
    navigator.mediaDevices?.removeEventListener('devicechange', this.#onChange);
  }

  /** The microphone in use ended, or a device came or went: the feature decides (`recheck`). */
  readonly #onChange = (): void => {
    const call = this.#watched;
    if (!call) return;
    this.#load().catch(() => {
      // Without the feature no other microphone can be opened: a call whose microphone ended ends.
      if (call.mic?.readyState === 'ended' && this.#context.isLive(call))
        this.#context.end(call, 'microphone-lost', {
          message: MICROPHONE_STOPPED,
        });
    });
  };
}
