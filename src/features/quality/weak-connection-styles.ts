// The "Weak connection" line: a quiet warning chip under the status, the device notice's look.
// Its accent stands on the side the text starts from (the right in Arabic).
import { css } from 'lit';

export const weakConnectionStyles = css`
  .weak-connection {
    margin: 0;
    padding: 8px 12px;
    border-radius: 14px;
    background: color-mix(in srgb, var(--vac-warning) 14%, var(--vac-background));
    border-inline-start: 3px solid var(--vac-warning);
    color: var(--vac-text);
    font-size: 13px;
  }
`;
