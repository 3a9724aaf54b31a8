// The microphone and speaker menu (`controls` has `devices`, the default): its toggle in the
// controls row, in the call chunk since the defaults show it. The menu itself (devices-menu.ts,
// its body, styles and device lists, with the session's side of choosing: devices-chunk.ts) is a
// chunk of its own, loaded when the pointer or focus reaches the toggle, or on its first click: a
// call that never reaches for it downloads none of it. A part (element/call-part.ts).
import { nothing, type TemplateResult } from 'lit';
import type { CallSessionEventMap, CallState } from '../../call/types.js';
import { isUp } from '../../call/state-predicates.js';
import { lazyChunk } from '../../call/lazy-chunk.js';
import { devicesIcon } from '../../element/call-icons.js';
import { shownControls, type CallPart, type PartContext } from '../../element/call-part.js';
import { adoptPartStyles } from '../../element/feature-parts.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import type { DevicesMenu } from './devices-menu.js';

const SHEET = 'devices';
const chunk = lazyChunk(() => import('./devices-chunk.js'));

export class DevicesPart implements CallPart {
  readonly #context: PartContext;
  #menu: DevicesMenu | null = null;

  constructor(context: PartContext) {
    this.#context = context;
  }

  onSessionEvent(type: keyof CallSessionEventMap): void {
    this.#menu?.onSessionEvent(type);
  }

  buttons(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    const { host, session, sheets } = this.#context;
    if (!shownControls(host.controls).has('devices') || !session()?.setMicrophone) return nothing;
    return sheets.button(
      SHEET,
      s.devices,
      devicesIcon,
      isUp(state) ? undefined : 'true',
      this.#onToggle,
      this.#onIntent,
    );
  }

  body(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    return this.#menu?.body(s, state) ?? nothing;
  }

  /** The pointer on the toggle, or focus: the menu's chunk loads ahead of the click. */
  readonly #onIntent = (): void => {
    chunk.load().catch(() => undefined);
  };

  readonly #onToggle = (): void => {
    const session = this.#context.session();
    if (!session || !isUp(session.state)) return;
    const { host, sheets } = this.#context;
    const root = host.renderRoot;
    sheets.toggle(SHEET, {
      // The menu's first render waits for its chunk and the device list, so focus lands on the device in use.
      ready: () => this.#ready(),
      first: () =>
        root.querySelector<HTMLElement>('.devices input:checked') ?? root.querySelector<HTMLElement>('.devices input'),
    });
  };

  /** The menu, its chunk loaded and its styles adopted the first time, with the devices listed; closed again when the chunk cannot load. */
  async #ready(): Promise<void> {
    if (!this.#menu) {
      const module = await chunk.load().catch(() => null);
      const root = this.#context.host.shadowRoot;
      if (!module || !root) {
        this.#context.sheets.close(true);
        return;
      }
      if (!this.#menu) {
        adoptPartStyles(root, module.menuStyles);
        this.#menu = new module.DevicesMenu(this.#context, SHEET);
      }
    }
    await this.#menu.refresh();
  }
}
