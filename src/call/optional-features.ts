// The optional features' session sides (the rows of features/registry.ts that have one: hold,
// keypad, transfer, persist, the metrics' report), each in a chunk of its own so a call that uses
// none of them downloads none: loaded when the session's options ask for them (`features`, or the
// option a row names: `persist`, `metrics: 'server'`) or on the first use of one of their methods,
// and wired into the session's hooks from then on, after the session's own, in the registry's
// order. Until its chunk has loaded a feature reads as not in use (not held, no transfer, nothing
// to resume). A feature that arrives mid-call needs no catch-up: each starts as a call's `started`
// would leave it (nothing held, no transfer, no digits queued); one that must see a call's end
// (the report) is told which call had ended before it was asked for (`endedBefore`).
import type { ActiveCall } from './active-call.js';
import type { CallHost } from './call-host.js';
import type { SessionFeature } from './session-feature.js';
import type { CallSessionOptions } from './types.js';
import { FEATURES, isAsked, namesWith, OPTIONAL_FEATURES, type SessionFeatureName } from '../features/registry.js';

/** What a feature's factory is given besides the session's host. */
export interface FeatureLoad {
  /** The session's call when the chunk was asked for, if that call had already ended. */
  readonly endedBefore: ActiveCall | null;
  /** Another optional feature, if its chunk has loaded. */
  get<K extends SessionFeatureName>(name: K): Features[K] | undefined;
}

/** What every session side's chunk exports. */
export interface SessionModule {
  makeFeature(host: CallHost, load: FeatureLoad): SessionFeature;
}

type Features = {
  [K in SessionFeatureName]: ReturnType<Awaited<ReturnType<(typeof FEATURES)[K]['session']>>['makeFeature']>;
};
type Name = SessionFeatureName;
const NAMES = namesWith('session');

/** Each feature's chunk. */
const chunk = (name: Name): Promise<SessionModule> => FEATURES[name].session();

/**
 * Fetches a feature's chunk ahead of the session that will use it (the element, as its call chunk
 * arrives, beside the feature's view part); a failed fetch is tried again when the session loads it.
 */
export function preloadFeature(name: Name): void {
  chunk(name).catch(() => undefined);
}

/** The optional features `options` ask for: those `features` names, and those whose option is set (`persist`, `metrics: 'server'`). */
export function wantedFeatures(options: Partial<CallSessionOptions>): Name[] {
  const controls: ReadonlySet<string> = new Set(options.features ?? []);
  return NAMES.filter((name) => isAsked(name, options, controls));
}

export class OptionalFeatures {
  readonly #host: CallHost;
  readonly #own: readonly SessionFeature[];
  readonly #loaded: Partial<Features> = {};
  readonly #loading = new Map<Name, Promise<SessionFeature>>();
  /** Every feature loaded, in the order their hooks run. */
  hooks: readonly SessionFeature[] = [];

  /** The hooks run in this order: the session's `own`, then the optional ones in the registry's. */
  constructor(host: CallHost, own: readonly SessionFeature[]) {
    this.#host = host;
    this.#own = own;
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
      const call = this.#host.call;
      const load: FeatureLoad = { endedBefore: call?.result ? call : null, get: (other) => this.get(other) };
      pending = chunk(name).then((module) => {
        const feature = module.makeFeature(this.#host, load) as Features[K];
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
  want(options: Partial<CallSessionOptions>): void {
    const features: readonly string[] = options.features ?? [];
    const unknown = features.find((name) => !(OPTIONAL_FEATURES as readonly string[]).includes(name));
    if (unknown !== undefined)
      throw new RangeError(
        `features: ${JSON.stringify(unknown)} is not an optional feature (${[...OPTIONAL_FEATURES].sort().join(', ')})`,
      );
    void this.loaded(options);
  }

  /** Settles once every feature `options` ask for has loaded or failed to (a failure is tried again on use). */
  loaded(options: Partial<CallSessionOptions>): Promise<void> {
    return Promise.all(wantedFeatures(options).map((name) => this.load(name).catch(() => undefined))).then(() => {});
  }

  #rewire(): void {
    this.hooks = [...this.#own, ...NAMES.flatMap((name) => this.#loaded[name] ?? [])];
  }
}
