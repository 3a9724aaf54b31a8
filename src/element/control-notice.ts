// The notice line over the sheets (call chunk): what changed without the visitor asking (the
// microphone in use went away) or a choice that did not take (a device, a hold, a transfer), shown
// and announced until the visitor acts on a control or the next call starts. A part: it reads the
// session's events itself, so it says a refused hold or transfer the page asked for too.
import { html, nothing, type TemplateResult } from 'lit';
import type { CallDeviceEvent, CallStateEvent } from '../call/events.js';
import type { CallSessionEventMap, CallState } from '../call/types.js';
import { fill, type CallPart } from './call-part.js';
import type { VoiceAgentCallStrings } from './strings.js';

type NoticeKey = 'microphoneLost' | 'deviceFailed' | 'holdFailed' | 'transferFailed';

/** The `call-error` codes that leave a notice, and its string. */
const FAILED: Partial<Record<string, NoticeKey>> = {
  hold_failed: 'holdFailed',
  device_failed: 'deviceFailed',
  transfer_failed: 'transferFailed',
};

export class ControlNotice implements CallPart {
  readonly urgent = true;
  #key: NoticeKey | null = null;
  #device = '';

  /** The visitor acted on a control. */
  clear(): void {
    this.#key = null;
  }

  onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type === 'call-device') {
      const { detail } = event as CallDeviceEvent;
      if (detail.fallback) {
        this.#key = 'microphoneLost';
        this.#device = detail.label;
      }
    } else if (type === 'call-error') {
      const { code } = (event as Event & { detail: CallSessionEventMap['call-error'] }).detail;
      this.#key = FAILED[code] ?? this.#key;
    } else if (type === 'call-state' && (event as CallStateEvent).detail.state === 'starting') {
      this.#key = null;
    }
  }

  #text(s: VoiceAgentCallStrings): string {
    if (!this.#key) return '';
    if (this.#key !== 'microphoneLost') return s[this.#key];
    return fill(s.microphoneLost, 'device', this.#device || s.microphone);
  }

  body(s: VoiceAgentCallStrings): TemplateResult | typeof nothing {
    const notice = this.#text(s);
    return notice ? html`<p class="device-notice" part="device-notice">${notice}</p>` : nothing;
  }

  announce(s: VoiceAgentCallStrings, state: CallState): string | null {
    return state === 'in-call' ? this.#text(s) || null : null;
  }
}
