// Talk to a person: the `transfer-button` in the controls row (a labelled pill on a row of its own
// above the other controls, since "Talk to a person" must be read, not guessed from an icon) and the person's
// transcript entries. In the transfer part's chunk (transfer-part.ts), adopted after the call's sheets.
import { css } from 'lit';

export const transferStyles = css`
  .transfer {
    flex: 1 1 100%;
    order: -1;
    min-inline-size: 0;
    gap: 6px;
    padding-inline: 14px;
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  .transfer span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .transfer[aria-disabled='true'] {
    opacity: 0.6;
    cursor: progress;
  }

  /* The pill takes a row of its own above the others: its words fit beside nothing at 390 px. */
  .controls:has(.transfer) {
    flex-wrap: wrap;
  }
`;
