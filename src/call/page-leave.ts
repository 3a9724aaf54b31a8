// The page going away mid-call (`pagehide` without the back/forward cache): the call hangs up
// (`page-unload`, by beacon), unless `persist` lets it leave for the next page (`leave` says
// whether it did). A `SessionFeature` so its listener comes and goes with each call.
import { clearTimers, type ActiveCall } from './active-call.js';
import type { CallHost } from './call-host.js';
import type { SessionFeature } from './session-feature.js';
import { isLive, stateOf } from './states.js';

export class PageLeave implements SessionFeature {
  readonly #host: CallHost;
  readonly #leave: (call: ActiveCall) => boolean;

  constructor(host: CallHost, leave: (call: ActiveCall) => boolean) {
    this.#host = host;
    this.#leave = leave;
  }

  started(_call: ActiveCall): void {
    window.addEventListener('pagehide', this.#onPageHide);
  }

  released(_call: ActiveCall): void {
    window.removeEventListener('pagehide', this.#onPageHide);
  }

  readonly #onPageHide = (event: PageTransitionEvent): void => {
    const call = this.#host.call;
    if (event.persisted || !call || !isLive(stateOf(call.phase))) return;
    // With `persist`, a call that is up leaves for the next page instead of hanging up.
    if (this.#host.options.persist && this.#leave(call)) {
      call.controller.abort();
      clearTimers(call);
      return;
    }
    void this.#host.end(call, 'page-unload');
  };
}
