// Counts what the page makes of one browser class (`AudioContext`, `RTCPeerConnection`, `WebSocket`) while a
// test runs: the global is replaced by a proxy of the class that keeps each instance it makes, and
// put back after.
// Counted, not faked: every instance is the browser's own.

interface Counted {
  AudioContext: AudioContext;
  RTCPeerConnection: RTCPeerConnection;
  WebSocket: WebSocket;
}

export interface Made<K extends keyof Counted> {
  /** Every instance made since `start()`, in order. */
  readonly made: Array<Counted[K]>;
  start(): void;
  restore(): void;
}

export function countMade<K extends keyof Counted>(name: K): Made<K> {
  const globals = window as unknown as Record<K, new (...args: never[]) => Counted[K]>;
  const Native = globals[name];
  const made: Array<Counted[K]> = [];
  return {
    made,
    start() {
      globals[name] = new Proxy(Native, {
        construct(target, args, newTarget) {
          const instance = Reflect.construct(target, args, newTarget) as Counted[K];
          made.push(instance);
          return instance;
        },
      });
    },
    restore() {
      globals[name] = Native;
    },
  };
}
