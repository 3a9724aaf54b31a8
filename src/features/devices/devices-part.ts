// The microphone and speaker menu (`controls` has `devices`, the default): its toggle in the
// controls row and the menu it opens in the body, listing the devices (and listening for changes)
// only while open. A part (element/call-part.ts), in the call chunk since the defaults show it.
import { html, nothing, type TemplateResult } from 'lit';
import type { CallSessionEventMap, CallState } from '../../call/types.js';
import { isUp } from '../../call/state-predicates.js';
import { devicesIcon } from '../../element/call-icons.js';
import { fill, shownControls, type CallPart, type PartContext } from '../../element/call-part.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import { canChooseSpeaker, listDevices } from './devices.js';

const SHEET = 'devices';

export class DevicesPart implements CallPart {
  readonly #context: PartContext;
  #inputs: MediaDeviceInfo[] = [];
  #outputs: MediaDeviceInfo[] = [];
  #listening = false;

  constructor(context: PartContext) {
    this.#context = context;
    context.sheets.onChange((open) => (open === SHEET ? this.#listen() : this.#stopListening()));
  }

  onSessionEvent(type: keyof CallSessionEventMap): void {
    if (type === 'call-device' && this.#context.sheets.open === SHEET) void this.#refresh();
  }

  buttons(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    const { host, session, sheets } = this.#context;
    if (!shownControls(host.controls).has('devices') || !session()?.setMicrophone) return nothing;
    return sheets.button(SHEET, s.devices, devicesIcon, isUp(state) ? undefined : 'true', this.#onToggle);
  }

  body(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    if (!isUp(state) || this.#context.sheets.open !== SHEET) return nothing;
    const { host } = this.#context;
    const microphone = host.microphoneId;
    const speaker = host.speakerId ?? 'default';
    const outputs = canChooseSpeaker() ? this.#outputs : [];
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
        ${this.#inputs.map((device, index) =>
          option(
            'vac-microphone',
            device,
            index,
            s.unnamedMicrophone,
            device.deviceId === (microphone ?? 'default'),
            this.#chooseMicrophone,
          ),
        )}
      </fieldset>
      ${
        outputs.length > 0
          ? html`<fieldset>
            <legend>${s.speaker}</legend>
            ${outputs.map((device, index) =>
              option('vac-speaker', device, index, s.unnamedSpeaker, device.deviceId === speaker, this.#chooseSpeaker),
            )}
          </fieldset>`
          : nothing
      }
    </div>`;
  }

  readonly #onToggle = (): void => {
    const session = this.#context.session();
    if (!session || !isUp(session.state)) return;
    const root = this.#context.host.renderRoot;
    this.#context.sheets.toggle(SHEET, {
      // The menu's first render waits for the device list, so focus lands on the device in use.
      ready: () => this.#refresh(),
      first: () =>
        root.querySelector<HTMLElement>('.devices input:checked') ?? root.querySelector<HTMLElement>('.devices input'),
    });
  };

  readonly #chooseMicrophone = (deviceId: string): void => {
    this.#context.clearNotice();
    this.#context.host.setMicrophone(deviceId).catch(() => undefined);
  };

  readonly #chooseSpeaker = (deviceId: string): void => {
    this.#context.clearNotice();
    this.#context.host.setSpeaker(deviceId).catch(() => undefined);
  };

  async #refresh(): Promise<void> {
    const [inputs, outputs] = await Promise.all([listDevices('audioinput'), listDevices('audiooutput')]);
    this.#inputs = inputs;
    this.#outputs = outputs;
    this.#context.invalidate();
  }

  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    navigator.mediaDevices?.addEventListener('devicechange', this.#onDeviceChange);
  }

  #stopListening(): void {
    if (!this.#listening) return;
    this.#listening = false;
    navigator.mediaDevices?.removeEventListener('devicechange', this.#onDeviceChange);
  }

  readonly #onDeviceChange = (): void => {
    void this.#refresh();
  };
}
