// The microphone and speaker menu's body (in the devices chunk, with its styles): the devices the
// browser lists, listening for changes only while the menu is open. devices-part.ts (call chunk)
// keeps its toggle in the controls row and loads this when the visitor reaches for it.
import { css, html, nothing, type CSSResult, type TemplateResult } from 'lit';
import type { CallSessionEventMap, CallState } from '../../call/types.js';
import { isUp } from '../../call/state-predicates.js';
import { fill, type PartContext } from '../../element/call-part.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import { canChooseSpeaker, listDevices } from './devices.js';

export class DevicesMenu {
  readonly #context: PartContext;
  /** The sheet the toggle opens (devices-part.ts names it). */
  readonly #sheet: string;
  #inputs: MediaDeviceInfo[] = [];
  #outputs: MediaDeviceInfo[] = [];
  #listening = false;

  constructor(context: PartContext, sheet: string) {
    this.#context = context;
    this.#sheet = sheet;
    context.sheets.onChange((open) => (open === sheet ? this.#listen() : this.#stopListening()));
    // Made as the menu opens: its first `onChange` came before.
    if (context.sheets.open === sheet) this.#listen();
  }

  onSessionEvent(type: keyof CallSessionEventMap): void {
    if (type === 'call-device' && this.#context.sheets.open === this.#sheet) void this.refresh();
  }

  body(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    if (!isUp(state) || this.#context.sheets.open !== this.#sheet) return nothing;
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

  /** Lists the devices again and renders them. */
  async refresh(): Promise<void> {
    const [inputs, outputs] = await Promise.all([listDevices('audioinput'), listDevices('audiooutput')]);
    this.#inputs = inputs;
    this.#outputs = outputs;
    this.#context.invalidate();
  }

  readonly #chooseMicrophone = (deviceId: string): void => {
    this.#context.clearNotice();
    this.#context.host.setMicrophone(deviceId).catch(() => undefined);
  };

  readonly #chooseSpeaker = (deviceId: string): void => {
    this.#context.clearNotice();
    this.#context.host.setSpeaker(deviceId).catch(() => undefined);
  };

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
    void this.refresh();
  };
}

export const menuStyles: CSSResult = css`
  .devices fieldset {
    margin: 0;
    padding: 0;
    border: 0;
    min-inline-size: 0;
  }

  .devices fieldset + fieldset {
    margin-block-start: 10px;
  }

  .devices legend {
    padding: 0 4px 4px;
    font-size: 12px;
    font-weight: 700;
    color: var(--vac-text-muted);
  }

  /* The whole row is the radio's target (the label holds it): 44 px tall, a finger's size. */
  .option {
    display: flex;
    align-items: center;
    gap: 10px;
    min-block-size: 44px;
    padding: 8px 6px;
    border-radius: 10px;
    font-size: 14px;
    color: var(--vac-text);
    cursor: pointer;
  }

  .option:hover {
    background: color-mix(in srgb, var(--vac-text) 6%, transparent);
  }

  .option input {
    flex: none;
    margin: 0;
    inline-size: 16px;
    block-size: 16px;
    accent-color: var(--vac-accent);
  }

  .option input:focus-visible {
    outline: 2px solid var(--vac-accent);
    outline-offset: 2px;
  }

  .option span {
    min-inline-size: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
`;
