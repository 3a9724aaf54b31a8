// The one bridge between a `CallSessionLike` and the element: listens to the session while the
// element is in the document, re-dispatches the public events on the element, keeps the call
// timer ticking while a call is up, and ends the call when the element leaves the document for good.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { SESSION_EVENT_NAMES as SESSION_EVENTS, isPublicCallEvent } from '../call/event-names.js';
import { createCallEvent, type CallStateEvent } from '../call/events.js';
import { isResting, isUp } from '../call/state-predicates.js';
import type { CallResult, CallSessionEventMap, CallSessionLike, CallState } from '../call/types.js';

/**
 * The live call of an element that left the document waits, until the removal is known to hold
 * (the task after it), for a new element of the same endpoint to take it over: a framework
 * re-mounting the element (React re-keying a parent or changing routes, Vue re-creating a
 * component) removes the old one and connects the new one in one task, in the same place (the
 * same parent node). Past that it ends as `element-removed`, as before.
 */
interface Parked {
  session: CallSessionLike;
  /** Where the element was: only an element put in the same place takes the call. */
  parent: Node | null;
  /** The element that left: it lets go of the session (another element took it). */
  release(): void;
}

/** Live calls whose element left the document in this task, by endpoint. */
const parked = new Map<string, Parked>();

/** The live call an element of `endpoint` left in `parent` in this task, for a new element there to take over; null when none. */
export function takeParkedSession(endpoint: string, parent: Node | null): CallSessionLike | null {
  const entry = parked.get(endpoint);
  if (!entry || entry.parent !== parent) return null;
  parked.delete(endpoint);
  entry.release();
  return entry.session;
}

export interface CallControllerHooks {
  /** The endpoint the element calls (a left call waits under it for a new element to take it over). */
  endpoint?(): string;
  /** Runs synchronously on every session event, before it is re-dispatched on the host. */
  onSessionEvent?(type: keyof CallSessionEventMap, event: Event): void;
  /** What the element's `call-ended` carries: the session's result, with what the element adds (`consentAt`). */
  endedDetail?(result: CallResult): CallResult;
}

export class CallController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #hooks: CallControllerHooks;
  #session: CallSessionLike | null = null;
  #listening = false;
  #connected = false;
  #removalCheck: ReturnType<typeof setTimeout> | undefined;
  /** Where the host is (kept from its connection: a removed element has no parent any more). */
  #parent: Node | null = null;
  /** The call this element left in this task, waiting for another element to take it. */
  #parked: { endpoint: string; entry: Parked } | null = null;
  #tick: ReturnType<typeof setTimeout> | undefined;
  /** Set once the element was removed mid-call: stop listening when that call has ended. */
  #detachAfterEnd = false;
  /** When the current call stopped being up, so the timer freezes at its final value. */
  #leftCallAt: number | null = null;

  constructor(host: ReactiveControllerHost & HTMLElement, hooks: CallControllerHooks = {}) {
    this.#host = host;
    this.#hooks = hooks;
    host.addController(this);
  }

  get session(): CallSessionLike | null {
    return this.#session;
  }

  /** Binds the session the element renders (once; the element keeps one session for its life). */
  bind(session: CallSessionLike): void {
    if (this.#session === session) return;
    // Widgets hold one live call per page (README: "Several widgets on one page").
    session.configure({ onePerPage: true });
    this.#unlisten();
    this.#session = session;
    if (this.#connected) this.#listen();
    this.#syncTicker();
    this.#host.requestUpdate();
  }

  get state(): CallState {
    return this.#session?.state ?? 'idle';
  }

  /** Milliseconds the current (or last) call has been up, or null before it connected. */
  get elapsedMs(): number | null {
    const connectedAt = this.#session?.connectedAt ?? null;
    if (connectedAt === null) return null;
    const end = isUp(this.state) ? Date.now() : (this.#leftCallAt ?? Date.now());
    return Math.max(0, end - connectedAt);
  }

  hostConnected(): void {
    this.#connected = true;
    // Back in the same task (a move): the call it left is its own again.
    this.#unpark();
    this.#parent = this.#host.parentNode;
    clearTimeout(this.#removalCheck);
    this.#removalCheck = undefined;
    this.#detachAfterEnd = false;
    this.#listen();
    this.#syncTicker();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#stopTicker();
    // A move (remove + insert in the same task, as frameworks do when re-parenting) must not end
    // the call; only a removal that still holds after the current task does.
    clearTimeout(this.#removalCheck);
    const session = this.#session;
    // A live call waits a moment under its endpoint for a new element (a re-mount) to take it over.
    if (session && !isResting(session.state) && !this.#parked) this.#park(session);
    this.#removalCheck = setTimeout(() => {
      this.#removalCheck = undefined;
      if (this.#host.isConnected) return;
      this.#unpark();
      this.#abandon();
    }, 0);
  }

  #park(session: CallSessionLike): void {
    const endpoint = this.#hooks.endpoint?.() ?? '';
    // Another call left under this endpoint in this task (two removed at once): this one ends as before.
    if (parked.has(endpoint)) return;
    const entry: Parked = {
      session,
      parent: this.#parent,
      release: () => {
        this.#unpark();
        this.#unlisten();
        this.#session = null;
        this.#stopTicker();
      },
    };
    parked.set(endpoint, entry);
    this.#parked = { endpoint, entry };
  }

  #unpark(): void {
    const left = this.#parked;
    if (!left) return;
    if (parked.get(left.endpoint) === left.entry) parked.delete(left.endpoint);
    this.#parked = null;
  }

  /** The element left for good: its live call ends (`element-removed`); listening stops after that end. */
  #abandon(): void {
    const session = this.#session;
    if (session && !isResting(session.state)) {
      this.#detachAfterEnd = true;
      session.abandon('element-removed');
    } else {
      this.#unlisten();
    }
  }

  #listen(): void {
    if (this.#listening || !this.#session) return;
    for (const type of SESSION_EVENTS) this.#session.addEventListener(type, this.#onSessionEvent);
    this.#listening = true;
  }

  #unlisten(): void {
    if (!this.#listening || !this.#session) return;
    for (const type of SESSION_EVENTS) this.#session.removeEventListener(type, this.#onSessionEvent);
    this.#listening = false;
  }

  readonly #onSessionEvent = (event: Event): void => {
    const type = event.type as keyof CallSessionEventMap;
    if (type === 'call-state') {
      const { state, previous } = (event as CallStateEvent).detail;
      if (isUp(previous) && !isUp(state)) this.#leftCallAt = Date.now();
      if (state === 'starting') this.#leftCallAt = null;
      this.#syncTicker();
    }
    this.#hooks.onSessionEvent?.(type, event);
    this.#host.requestUpdate();
    // New, host-owned instances of the public events (same class, same `detail`).
    if (isPublicCallEvent(type)) {
      const detail = (event as Event & { detail: CallSessionEventMap[typeof type] }).detail;
      this.#host.dispatchEvent(
        type === 'call-ended' && this.#hooks.endedDetail
          ? createCallEvent(type, this.#hooks.endedDetail(detail as CallResult))
          : createCallEvent(type, detail),
      );
    }
    if (type === 'call-ended' && this.#detachAfterEnd && !this.#connected) {
      this.#detachAfterEnd = false;
      this.#unlisten();
    }
  };

  /** Re-renders on each whole second of the call, only while a call is up and the host is shown. */
  #syncTicker(): void {
    if (!this.#connected || !isUp(this.state)) {
      this.#stopTicker();
      return;
    }
    if (this.#tick !== undefined) return;
    const schedule = (): void => {
      const connectedAt = this.#session?.connectedAt ?? Date.now();
      const untilNextSecond = 1000 - ((Date.now() - connectedAt) % 1000);
      this.#tick = setTimeout(() => {
        this.#tick = undefined;
        this.#host.requestUpdate();
        if (this.#connected && isUp(this.state)) schedule();
      }, untilNextSecond + 5);
    };
    schedule();
  }

  #stopTicker(): void {
    clearTimeout(this.#tick);
    this.#tick = undefined;
  }
}
