// Screen wake, the session's side: the screen stays awake from `connecting` until the call lets
// go of its media.
import type { SessionFeature } from '../../call/session-feature.js';
import { ScreenWake } from './screen-wake.js';

export class ScreenWakeFeature implements SessionFeature {
  readonly #wake: ScreenWake;

  constructor(wake = new ScreenWake()) {
    this.#wake = wake;
  }

  connecting(): void {
    this.#wake.hold();
  }

  released(): void {
    this.#wake.release();
  }
}
