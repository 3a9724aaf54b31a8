// The optional features' session sides (hold, keypad, transfer, persist, the metrics' report), each
// in a chunk of its own so a call that uses none of them downloads none: loaded when the session's
// options ask for them (`features`, `persist`, `metrics: 'server'`) or on the first use of one of
// their methods, and wired into the session's hooks from then on. Until its chunk has loaded a
// feature reads as not in use (not held, no transfer, nothing to resume). A feature that arrives
// mid-call needs no catch-up: each starts as a call's `started` would leave it (nothing held, no
// transfer, no digits queued); the report sends a call that ended while it loaded as it arrives.
import type { CallHost } from './call-host.js';
import type { SessionFeature } from './session-feature.js';
import type { CallSessionOptions, OptionalFeature } from './types.js';
import type { HoldFeature } from '../features/hold/hold-feature.js';
import type { KeypadFeature } from '../features/keypad/keypad-feature.js';
import type { MetricsReport } from '../features/metrics/metrics-report.js';
import type { PersistFeature } from '../features/persist/persist-feature.js';
import type { TransferFeature } from '../features/transfer/transfer-feature.js';

/** What `features` may name. */
const OPTIONAL: readonly OptionalFeature[] = ['hold', 'keypad', 'transfer'];

interface Features {
  hold: HoldFeature;
  keypad: KeypadFeature;
  transfer: TransferFeature;
  persist: PersistFeature;
  metrics: MetricsReport;
}
type Name = keyof Features;

/** Each feature's chunk. */
const CHUNKS = {
  hold: () => import('../features/hold/hold-feature.js'),
  keypad: () => import('../features/keypad/keypad-feature.js'),
  transfer: () => import('../features/transfer/transfer-feature.js'),
  persist: () => import('../features/persist/persist-feature.js'),
  metrics: () => import('../features/metrics/metrics-report.js'),
};

/** How the session makes each feature, once its chunk has loaded. */
const MAKE: { [K in Name]: (host: CallHost, held: () => boolean) => Promise<Features[K]> } = {
  hold: (host) => CHUNKS.hold().then((m) => new m.HoldFeature(host)),
  keypad: (host) => CHUNKS.keypad().then((m) => new m.KeypadFeature(host)),
  transfer: (host) => CHUNKS.transfer().then((m) => new m.TransferFeature(host)),
  persist: (host, held) => CHUNKS.persist().then((m) => new m.PersistFeature(host, held)),
  metrics: (host) => {
    const before = host.call?.result ? host.call : null;
    return CHUNKS.metrics().then((m) => new m.MetricsReport(host, before));
  },
};

/**
 * Fetches a feature's chunk ahead of the session that will use it (the element, as its call chunk
 * arrives, beside the feature's view part); a failed fetch is tried again when the session loads it.
 */
export function preloadFeature(name: Name): void {
  CHUNKS[name]().catch(() => undefined);
}

export class OptionalFeatures {
  readonly #host: CallHost;
  /** The session's hook order: its own features, with the optional ones' places among them by name. */
  readonly #order: readonly (SessionFeature | Name)[];
  readonly #loaded: Partial<Features> = {};
  readonly #loading = new Map<Name, Promise<SessionFeature>>();
  /** Every feature loaded, in the order their hooks run. */
  hooks: readonly SessionFeature[] = [];

  /** The hooks run in this order: `first`, hold, keypad, transfer, `then`, persist, metrics (after `then`'s, which put them on the result). */
  constructor(host: CallHost, first: readonly SessionFeature[], then: readonly SessionFeature[]) {
    this.#host = host;
    this.#order = [...first, 'hold', 'keypad', 'transfer', ...then, 'persist', 'metrics'];
    this.#rewire();
  }

  /** The feature if its chunk has loaded, else undefined. */
  get<K extends Name>(name: K): Features[K] | undefined {
    return this.#loaded[name];
  }

  /** Runs `use` with the feature: at once when it has loaded, else once its chunk has (a failed load rejects). */
  use<K extends Name, T>(name: K, use: (feature: Features[K]) => Promise<T>): Promise<T> {
    const loaded = this.#loaded[name];
    return loaded ? use(loaded) : this.load(name).then(use);
  }

  /** The feature, loading its chunk first when it has not loaded; a failed load rejects and is tried again next time. */
  load<K extends Name>(name: K): Promise<Features[K]> {
    const loaded = this.#loaded[name];
    if (loaded) return Promise.resolve(loaded);
    let pending = this.#loading.get(name) as Promise<Features[K]> | undefined;
    if (!pending) {
      const held = () => this.#loaded.hold?.held ?? false;
      pending = MAKE[name](this.#host, held).then((feature) => {
        this.#loaded[name] = feature;
        this.#rewire();
        return feature;
      });
      this.#loading.set(name, pending);
      const forget = () => void this.#loading.delete(name);
      pending.then(forget, forget);
    }
    return pending;
  }

  /**
   * Loads what the options ask for (`features`, `persist`, `metrics: 'server'`) in the background; a
   * failed load is tried again on use. A name that is no optional feature throws a `RangeError`, loading nothing.
   */
  want(options: Pick<CallSessionOptions, 'features' | 'persist' | 'metrics'>): void {
    const features: readonly string[] = options.features ?? [];
    const unknown = features.find((name) => !(OPTIONAL as readonly string[]).includes(name));
    if (unknown !== undefined)
      throw new RangeError(`features: ${JSON.stringify(unknown)} is not an optional feature (${OPTIONAL.join(', ')})`);
    const names: Name[] = [
      ...(options.features ?? []),
      ...(options.persist ? (['persist'] as const) : []),
      ...(options.metrics === 'server' ? (['metrics'] as const) : []),
    ];
    for (const name of names) this.load(name).catch(() => undefined);
  }

  #rewire(): void {
    this.hooks = this.#order.flatMap((entry) => (typeof entry === 'string' ? (this.#loaded[entry] ?? []) : entry));
  }
}
