// Styles of the consent gate (consent-gate.ts): the disclosure in the body, "Cancel" beside
// "Agree and call" in the controls row. In the lazy call chunk (call-styles.ts lists the sheets).
import { css } from 'lit';

export const consentStyles = css`
  .consent {
    display: flex;
    flex-direction: column;
    gap: 6px;
    padding: 12px 14px;
    border-radius: 14px;
    border: 1px solid var(--vac-border);
    background: var(--vac-surface);
  }

  .consent-label {
    margin: 0;
    font-weight: 650;
  }

  .consent-text {
    font-size: 14px;
    color: var(--vac-text);
    overflow-wrap: anywhere;
  }

  .consent-text ::slotted(*) {
    margin: 0;
  }

  .consent-text ::slotted(a) {
    color: var(--vac-accent);
  }

  .control.secondary {
    flex: 0 1 auto;
    background: var(--vac-surface);
    color: var(--vac-text);
  }
`;
