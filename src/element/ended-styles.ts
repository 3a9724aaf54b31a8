// Styles of the ended state: what went wrong and what to do, and the summary line. In the lazy
// call chunk (call-styles.ts lists the sheets).
import { css } from 'lit';

export const endedStyles = css`
  .root[data-error] .status-dot {
    background: var(--vac-danger);
    opacity: 1;
  }

  .error {
    display: flex;
    gap: 10px;
    padding: 12px;
    border-radius: 14px;
    border: 1px solid color-mix(in srgb, var(--vac-danger) 30%, transparent);
    background: color-mix(in srgb, var(--vac-danger) 8%, var(--vac-background));
  }

  .error .icon {
    color: var(--vac-danger);
    margin-block-start: 1px;
  }

  .error-title {
    margin: 0 0 2px;
    font-weight: 650;
  }

  .error-help {
    margin: 0;
    font-size: 13px;
  }

  /* After the call the log is as tall as its lines: no empty space between a short transcript and
     the summary (during the call it keeps a minimum height, so the card does not jump). */
  .root[data-state='ended'] .transcript {
    min-block-size: 0;
  }

  .summary {
    margin: 0;
    text-align: center;
    font-size: 13px;
    color: var(--vac-text-muted);
    font-variant-numeric: tabular-nums;
  }
`;
