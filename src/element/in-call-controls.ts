// The in-call controls beyond mute and hang-up (call chunk): which ones show (`controls`), the
// hold toggle, the keypad and the microphone and speaker menu, and the notice when the microphone
// in use goes away. A reactive controller of the element, driven by CallView: the view renders
// the buttons and the open sheet where it places them, this keeps what they need.
import {
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type SVGTemplateResult,
  type TemplateResult,
} from 'lit';
import { canChooseSpeaker, listDevices } from '../features/devices/devices.js';
import type { CallDeviceEvent, CallDtmfEvent, CallStateEvent } from '../call/events.js';
import { isUp } from '../call/state-predicates.js';
import type { CallSessionEventMap, CallSessionLike, CallState } from '../call/types.js';
import { devicesIcon, holdIcon, keypadIcon, resumeIcon } from './call-icons.js';
import type { VoiceAgentCallStrings } from './strings.js';
import { isDtmfDigit } from '../wire/dtmf.js';
import { transferButton } from '../features/transfer/transfer-view.js';

/** The tokens of `controls`; hang-up always shows. */
export type InCallControl = 'mute' | 'devices' | 'keypad' | 'hold' | 'transfer';
const CONTROL_TOKENS: ReadonlySet<string> = new Set<InCallControl>(['mute', 'devices', 'keypad', 'hold', 'transfer']);
const DEFAULT_CONTROLS = 'mute devices';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;
const KEY_LETTERS: Partial<Record<string, string>> = {
  '2': 'ABC',
  '3': 'DEF',
  '4': 'GHI',
  '5': 'JKL',
  '6': 'MNO',
  '7': 'PQRS',
  '8': 'TUV',
  '9': 'WXYZ',
  '0': '+',
};

type Sheet = 'keypad' | 'devices';

export interface InCallControlsHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The `controls` attribute. */
  readonly controls?: string | null;
  readonly held: boolean;
  readonly microphoneId: string | null;
  readonly speakerId: string | null;
  setHeld(held: boolean): Promise<void>;
  requestTransfer(): Promise<void>;
  sendDigits(digits: string): Promise<void>;
  setMicrophone(deviceId: string): Promise<void>;
  setSpeaker(deviceId: string): Promise<void>;
}

/** `controls` as the set of controls it names; unknown tokens are ignored. */
export function shownControls(attribute: string | undefined | null): Set<InCallControl> {
  const tokens = (attribute ?? DEFAULT_CONTROLS).split(/\s+/);
  return new Set(tokens.filter((token): token is InCallControl => CONTROL_TOKENS.has(token)));
}

function fill(template: string, key: string, value: string): string {
  return template.split(`{${key}}`).join(value);
}

export class InCallControls implements ReactiveController {
  private readonly _host: InCallControlsHost;
  private readonly _session: () => CallSessionLike | null;
  private readonly _invalidate: () => void;
  private _sheet: Sheet | null = null;
  /** The digits sent in this call, shown above the pad. */
  private _sent = '';
  /** What changed without the visitor asking (the microphone went away), or a choice that failed. */
  private _noticeKey: 'microphoneLost' | 'deviceFailed' | 'holdFailed' | 'transferFailed' | null = null;
  private _noticeDevice = '';
  private _inputs: MediaDeviceInfo[] = [];
  private _outputs: MediaDeviceInfo[] = [];
  private _listening = false;

  constructor(host: InCallControlsHost, session: () => CallSessionLike | null, invalidate: () => void) {
    this._host = host;
    this._session = session;
    this._invalidate = invalidate;
    host.addController(this);
  }

  hostConnected(): void {
    // A change of `controls` re-renders the host: it is a declared property of the element.
    this._host.addEventListener('keydown', this._onKeydown);
  }

  hostDisconnected(): void {
    this._host.removeEventListener('keydown', this._onKeydown);
    this._stopListening();
  }

  /** The view passes every session event here. */
  onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type === 'call-dtmf') {
      this._sent = (this._sent + (event as CallDtmfEvent).detail.digit).slice(-24);
    } else if (type === 'call-device') {
      const { detail } = event as CallDeviceEvent;
      if (detail.fallback) {
        this._noticeKey = 'microphoneLost';
        this._noticeDevice = detail.label;
      }
      if (this._sheet === 'devices') void this._refreshDevices();
    } else if (type === 'call-error') {
      const { code } = (event as Event & { detail: CallSessionEventMap['call-error'] }).detail;
      if (code === 'hold_failed' || code === 'device_failed') {
        this._noticeKey = code === 'hold_failed' ? 'holdFailed' : 'deviceFailed';
      }
      if (code === 'transfer_failed') this._noticeKey = 'transferFailed';
    } else if (type === 'call-state') {
      const { state } = (event as CallStateEvent).detail;
      if (state === 'starting') {
        this._sent = '';
        this._noticeKey = null;
      }
      // An open keypad or menu belongs to a call that is up.
      if (!isUp(state)) this._close(false);
    }
  }

  /** The notice to show and announce, or ''. */
  notice(s: VoiceAgentCallStrings): string {
    if (!this._noticeKey) return '';
    if (this._noticeKey !== 'microphoneLost') return s[this._noticeKey];
    return fill(s.microphoneLost, 'device', this._noticeDevice || s.microphone);
  }

  /** The open sheet (keypad or devices), inside the card's body. */
  sheet(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    const notice = this.notice(s);
    const noticeView = notice ? html`<p class="device-notice" part="device-notice">${notice}</p>` : nothing;
    if (!isUp(state) || !this._sheet) return noticeView;
    return html`${noticeView}${this._sheet === 'keypad' ? this._renderKeypad(s) : this._renderDevices(s)}`;
  }

  /** The buttons of the shown controls other than mute, for the controls row. */
  buttons(s: VoiceAgentCallStrings, state: CallState): TemplateResult[] {
    const session = this._session();
    const shown = shownControls(this._host.controls);
    const up = isUp(state);
    const inactive = up ? undefined : 'true';
    const buttons: TemplateResult[] = [];
    if (shown.has('devices') && session?.setMicrophone) {
      buttons.push(this._toggle('devices', s.devices, devicesIcon, inactive));
    }
    if (shown.has('keypad') && session?.sendDigits) {
      buttons.push(this._toggle('keypad', s.keypad, keypadIcon, inactive));
    }
    // One name, "Hold", and `aria-pressed` while held (the WAI-ARIA toggle pattern): not "Resume"
    // as well, which a screen reader would say with "pressed". The icon shows what a press does.
    // A person (after a transfer) is no AI to pause.
    if (shown.has('hold') && session?.canHold && session.setHeld && session.transferState !== 'connected') {
      const held = this._host.held;
      buttons.push(html`<button
        class="control tool hold"
        part="hold-button"
        type="button"
        aria-pressed=${held ? 'true' : 'false'}
        aria-disabled=${inactive ?? nothing}
        title=${s.hold}
        @click=${this._onHoldClick}
      >
        ${held ? resumeIcon : holdIcon}<span class="tool-label">${s.hold}</span>
      </button>`);
    }
    // Talk to a person (src/features/transfer): only while the companion offers it.
    const transfer = shown.has('transfer') ? transferButton(session, s, inactive, this._onTransferClick) : null;
    if (transfer) buttons.push(transfer);
    return buttons;
  }

  /** The mute toggle shows (`controls` has `mute`). */
  showsMute(): boolean {
    return shownControls(this._host.controls).has('mute');
  }

  private _toggle(sheet: Sheet, label: string, icon: SVGTemplateResult, inactive: 'true' | undefined): TemplateResult {
    const open = this._sheet === sheet;
    return html`<button
      class="control tool ${sheet}-toggle"
      part="${sheet}-button"
      type="button"
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${sheet}
      aria-disabled=${inactive ?? nothing}
      title=${label}
      @click=${() => this._onToggle(sheet)}
    >
      ${icon}<span class="tool-label">${label}</span>
    </button>`;
  }

  private _renderKeypad(s: VoiceAgentCallStrings): TemplateResult {
    return html`<div class="sheet keypad" part="keypad" id="keypad" role="group" aria-label=${s.keypad}>
      <div class="keypad-sent" dir="ltr" aria-hidden="true">${this._sent || '\u00a0'}</div>
      <div class="keys">
        ${KEYS.map(
          (key) => html`<button
            class="key"
            part="keypad-key"
            type="button"
            data-key=${key}
            @click=${() => this._send(key)}
          >
            <span class="digit">${key}</span><span class="letters" aria-hidden="true">${KEY_LETTERS[key] ?? '\u00a0'}</span>
          </button>`,
        )}
      </div>
    </div>`;
  }

  private _renderDevices(s: VoiceAgentCallStrings): TemplateResult {
    const microphone = this._host.microphoneId;
    const speaker = this._host.speakerId ?? 'default';
    const outputs = canChooseSpeaker() ? this._outputs : [];
    const option = (
      name: string,
      device: MediaDeviceInfo,
      index: number,
      unnamed: string,
      checked: boolean,
      choose: (id: string) => void,
    ): TemplateResult => html`<label class="option">
      <input
        type="radio"
        name=${name}
        .checked=${checked}
        @change=${() => choose(device.deviceId)}
      /><span>${device.label || fill(unnamed, 'n', String(index + 1))}</span>
    </label>`;
    return html`<div class="sheet devices" part="devices" id="devices" role="group" aria-label=${s.devices}>
      <fieldset>
        <legend>${s.microphone}</legend>
        ${this._inputs.map((device, index) =>
          option(
            'vac-microphone',
            device,
            index,
            s.unnamedMicrophone,
            device.deviceId === (microphone ?? 'default'),
            this._chooseMicrophone,
          ),
        )}
      </fieldset>
      ${
        outputs.length > 0
          ? html`<fieldset>
            <legend>${s.speaker}</legend>
            ${outputs.map((device, index) =>
              option('vac-speaker', device, index, s.unnamedSpeaker, device.deviceId === speaker, this._chooseSpeaker),
            )}
          </fieldset>`
          : nothing
      }
    </div>`;
  }

  // ---- what the visitor does ----

  private readonly _onTransferClick = (): void => {
    const session = this._session();
    if (!session?.canTransfer || !isUp(session.state)) return;
    this._noticeKey = null;
    this._host.requestTransfer().catch(() => undefined);
  };

  private readonly _onHoldClick = (): void => {
    const session = this._session();
    if (!session || !isUp(session.state)) return;
    this._noticeKey = null;
    this._host.setHeld(!this._host.held).catch(() => undefined);
  };

  private _onToggle(sheet: Sheet): void {
    const session = this._session();
    if (!session || !isUp(session.state)) return;
    if (this._sheet === sheet) {
      this._close(true);
      return;
    }
    this._sheet = sheet;
    if (sheet === 'devices') this._listen();
    else this._stopListening();
    this._invalidate();
    // The menu's first render waits for the device list, so focus lands on the device in use.
    const ready = sheet === 'devices' ? this._refreshDevices() : Promise.resolve();
    void ready
      .then(() => this._host.updateComplete)
      .then(() => {
        if (this._sheet !== sheet) return;
        // The sheet made the card taller and pushed the controls row down, on a phone under a
        // floating launcher: the row scrolls back into view, clear of it (its scroll margin), before
        // focus scrolls to the sheet's first key if it has to. A floating panel is fixed: no need.
        if (this._host.getAttribute('layout') !== 'floating')
          this._query<HTMLElement>('.controls')?.scrollIntoView({ block: 'nearest' });
        const first =
          sheet === 'keypad'
            ? this._query<HTMLElement>('.keypad .key')
            : (this._query<HTMLElement>('.devices input:checked') ?? this._query<HTMLElement>('.devices input'));
        first?.focus();
      });
  }

  /** Closes the open sheet; `refocus`: its toggle gets focus back (Escape, or the toggle itself). */
  private _close(refocus: boolean): void {
    const sheet = this._sheet;
    if (!sheet) return;
    this._sheet = null;
    this._stopListening();
    this._invalidate();
    if (refocus)
      void this._host.updateComplete.then(() => this._query<HTMLElement>(`[part~='${sheet}-button']`)?.focus());
  }

  private _send(digit: string): void {
    this._host.sendDigits(digit).catch(() => undefined);
  }

  private readonly _chooseMicrophone = (deviceId: string): void => {
    this._noticeKey = null;
    this._host.setMicrophone(deviceId).catch(() => undefined);
  };

  private readonly _chooseSpeaker = (deviceId: string): void => {
    this._noticeKey = null;
    this._host.setSpeaker(deviceId).catch(() => undefined);
  };

  /** Digits typed anywhere in the widget while the keypad is open are sent; Escape closes an open sheet. */
  private readonly _onKeydown = (event: KeyboardEvent): void => {
    if (!this._sheet || event.defaultPrevented) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this._close(true);
      return;
    }
    if (this._sheet !== 'keypad' || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!isDtmfDigit(event.key)) return;
    event.preventDefault();
    this._send(event.key);
  };

  private async _refreshDevices(): Promise<void> {
    const [inputs, outputs] = await Promise.all([listDevices('audioinput'), listDevices('audiooutput')]);
    this._inputs = inputs;
    this._outputs = outputs;
    this._invalidate();
  }

  private _listen(): void {
    if (this._listening) return;
    this._listening = true;
    navigator.mediaDevices?.addEventListener('devicechange', this._onDeviceChange);
  }

  private _stopListening(): void {
    if (!this._listening) return;
    this._listening = false;
    navigator.mediaDevices?.removeEventListener('devicechange', this._onDeviceChange);
  }

  private readonly _onDeviceChange = (): void => {
    void this._refreshDevices();
  };

  private _query<T extends Element>(selector: string): T | null {
    return this._host.renderRoot.querySelector<T>(selector);
  }
}
