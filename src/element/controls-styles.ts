// Styles of the in-call controls beyond mute and hang-up (their parts: element/call-part.ts): the
// round tool buttons in the controls row, the sheet the keypad and the microphone and speaker menu
// open in the body, and the device notice (the keypad's own: features/keypad; the menu's own:
// features/devices/devices-menu.ts). In the lazy call chunk (call-styles.ts lists the sheets).
import { css } from 'lit';

export const controlsStyles = css`
  /* The row holds every combination of controls at every card width (down to 280 px) and in every
     language: mute and hang-up never shrink below their label, and when the row cannot hold them
     all, hang-up takes a line of its own, full width, under the round tools (issue 40). */
  .controls {
    flex-wrap: wrap;
    justify-content: center;
  }

  .controls .mute,
  .controls .hangup {
    flex: 1 0 auto;
  }

  /* An inline card's row, scrolled into view when a sheet opens, keeps a launcher's room below it
     (a floating launcher of the default size and offset in the page's corner). */
  .root:not(.floating) .controls {
    scroll-margin-block-end: calc(var(--vac-launcher-size) + 2 * var(--vac-offset));
  }

  .tool {
    flex: none;
    inline-size: 46px;
    padding: 0;
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  .tool[aria-expanded='true'],
  .tool[aria-pressed='true'] {
    background: var(--vac-text);
    color: var(--vac-background);
  }

  /* A tool's name is for assistive tech and the tooltip; with two tools or more mute goes round too. */
  .tool-label,
  .controls:has(.tool + .tool) .mute span {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .controls:has(.tool + .tool) .mute {
    flex: none;
    inline-size: 46px;
    padding: 0;
  }

  .sheet {
    padding: 10px;
    border-radius: 16px;
    background: var(--vac-surface);
  }

  .device-notice {
    margin: 0;
    padding: 10px 12px;
    border-radius: 14px;
    background: color-mix(in srgb, var(--vac-warning) 14%, var(--vac-background));
    color: var(--vac-text);
    font-size: 13px;
  }
`;
