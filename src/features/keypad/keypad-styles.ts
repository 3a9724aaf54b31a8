// The keypad's pad (keypad-part.ts): the digits sent, the 3 by 4 keys; in the keypad's chunk,
// adopted after the call's sheets. The sheet around it is the call's (element/controls-styles.ts).
import { css } from 'lit';

export const keypadStyles = css`
  .keypad-sent {
    min-block-size: 22px;
    margin-block-end: 6px;
    text-align: center;
    font-size: 17px;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    letter-spacing: 0.12em;
    color: var(--vac-text);
  }

  .keys {
    display: grid;
    grid-template-columns: repeat(3, 1fr);
    gap: 8px;
    direction: ltr;
  }

  .key {
    display: grid;
    justify-items: center;
    align-content: center;
    gap: 0;
    min-block-size: 44px;
    padding: 6px 0 5px;
    border: 0;
    border-radius: 12px;
    background: var(--vac-background);
    color: var(--vac-text);
    font: inherit;
    line-height: 1.1;
  }

  .key:hover {
    filter: brightness(0.97);
  }

  .key:active {
    transform: scale(0.97);
  }

  .key .digit {
    font-size: 20px;
    font-weight: 600;
  }

  .key .letters {
    font-size: 10px;
    font-weight: 600;
    letter-spacing: 0.08em;
    color: var(--vac-text-muted);
  }
`;
