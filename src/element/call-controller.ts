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
  private readonly _host: ReactiveControllerHost & HTMLElement;
  private readonly _hooks: CallControllerHooks;
  private _session: CallSessionLike | null = null;
  private _listening = false;
  private _connected = false;
  private _removalCheck: ReturnType<typeof setTimeout> | undefined;
  /** Where the host is (kept from its connection: a removed element has no parent any more). */
  private _parent: Node | null = null;
  /** The call this element left in this task, waiting for another element to take it. */
  private _parked: { endpoint: string; entry: Parked } | null = null;
  private _tick: ReturnType<typeof setTimeout> | undefined;
  /** Set once the element was removed mid-call: stop listening when that call has ended. */
  private _detachAfterEnd = false;
  /** When the current call stopped being up, so the timer freezes at its final value. */
  private _leftCallAt: number | null = null;

  constructor(host: ReactiveControllerHost & HTMLElement, hooks: CallControllerHooks = {}) {
    this._host = host;
    this._hooks = hooks;
    host.addController(this);
  }

  get session(): CallSessionLike | null {
    return this._session;
  }

  /** Binds the session the element renders (once; the element keeps one session for its life). */
  bind(session: CallSessionLike): void {
    if (this._session === session) return;
    // Widgets hold one live call per page (README: "Several widgets on one page").
    session.configure({ onePerPage: true });
    this._unlisten();
    this._session = session;
    if (this._connected) this._listen();
    this._syncTicker();
    this._host.requestUpdate();
  }

  get state(): CallState {
    return this._session?.state ?? 'idle';
  }

  /** Milliseconds the current (or last) call has been up, or null before it connected. */
  get elapsedMs(): number | null {
    const connectedAt = this._session?.connectedAt ?? null;
    if (connectedAt === null) return null;
    const end = isUp(this.state) ? Date.now() : (this._leftCallAt ?? Date.now());
    return Math.max(0, end - connectedAt);
  }

  hostConnected(): void {
    this._connected = true;
    // Back in the same task (a move): the call it left is its own again.
    this._unpark();
    this._parent = this._host.parentNode;
    clearTimeout(this._removalCheck);
    this._removalCheck = undefined;
    this._detachAfterEnd = false;
    this._listen();
    this._syncTicker();
  }

  hostDisconnected(): void {
    this._connected = false;
    this._stopTicker();
    // A move (remove + insert in the same task, as frameworks do when re-parenting) must not end
    // the call; only a removal that still holds after the current task does.
    clearTimeout(this._removalCheck);
    const session = this._session;
    // A live call waits a moment under its endpoint for a new element (a re-mount) to take it over.
    if (session && !isResting(session.state) && !this._parked) this._park(session);
    this._removalCheck = setTimeout(() => {
      this._removalCheck = undefined;
      if (this._host.isConnected) return;
      this._unpark();
      this._abandon();
    }, 0);
  }

  private _park(session: CallSessionLike): void {
    const endpoint = this._hooks.endpoint?.() ?? '';
    // Another call left under this endpoint in this task (two removed at once): this one ends as before.
    if (parked.has(endpoint)) return;
    const entry: Parked = {
      session,
      parent: this._parent,
      release: () => {
        this._unpark();
        this._unlisten();
        this._session = null;
        this._stopTicker();
      },
    };
    parked.set(endpoint, entry);
    this._parked = { endpoint, entry };
  }

  private _unpark(): void {
    const left = this._parked;
    if (!left) return;
    if (parked.get(left.endpoint) === left.entry) parked.delete(left.endpoint);
    this._parked = null;
  }

  /** The element left for good: its live call ends (`element-removed`); listening stops after that end. */
  private _abandon(): void {
    const session = this._session;
    if (session && !isResting(session.state)) {
      this._detachAfterEnd = true;
      session.abandon('element-removed');
    } else {
      this._unlisten();
    }
  }

  private _listen(): void {
    if (this._listening || !this._session) return;
    for (const type of SESSION_EVENTS) this._session.addEventListener(type, this._onSessionEvent);
    this._listening = true;
  }

  private _unlisten(): void {
    if (!this._listening || !this._session) return;
    for (const type of SESSION_EVENTS) this._session.removeEventListener(type, this._onSessionEvent);
    this._listening = false;
  }

  private readonly _onSessionEvent = (event: Event): void => {
    const type = event.type as keyof CallSessionEventMap;
    if (type === 'call-state') {
      const { state, previous } = (event as CallStateEvent).detail;
      if (isUp(previous) && !isUp(state)) this._leftCallAt = Date.now();
      if (state === 'starting') this._leftCallAt = null;
      this._syncTicker();
    }
    this._hooks.onSessionEvent?.(type, event);
    this._host.requestUpdate();
    // New, host-owned instances of the public events (same class, same `detail`).
    if (isPublicCallEvent(type)) {
      const detail = (event as Event & { detail: CallSessionEventMap[typeof type] }).detail;
      this._host.dispatchEvent(
        type === 'call-ended' && this._hooks.endedDetail
          ? createCallEvent(type, this._hooks.endedDetail(detail as CallResult))
          : createCallEvent(type, detail),
      );
    }
    if (type === 'call-ended' && this._detachAfterEnd && !this._connected) {
      this._detachAfterEnd = false;
      this._unlisten();
    }
  };

  /** Re-renders on each whole second of the call, only while a call is up and the host is shown. */
  private _syncTicker(): void {
    if (!this._connected || !isUp(this.state)) {
      this._stopTicker();
      return;
    }
    if (this._tick !== undefined) return;
    const schedule = (): void => {
      const connectedAt = this._session?.connectedAt ?? Date.now();
      const untilNextSecond = 1000 - ((Date.now() - connectedAt) % 1000);
      this._tick = setTimeout(() => {
        this._tick = undefined;
        this._host.requestUpdate();
        if (this._connected && isUp(this.state)) schedule();
      }, untilNextSecond + 5);
    };
    schedule();
  }

  private _stopTicker(): void {
    clearTimeout(this._tick);
    this._tick = undefined;
  }
}
