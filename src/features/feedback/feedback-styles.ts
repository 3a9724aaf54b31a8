// Styles of the rating after a call (feedback-prompt.ts): the question and thumbs, the comment
// with "Skip" and "Send", the thanks. In the lazy call chunk (call-styles.ts lists the sheets).
import { css } from 'lit';

export const feedbackStyles = css`
  .feedback {
    display: flex;
    flex-direction: column;
    gap: 8px;
    margin: 0;
  }

  .feedback-ask {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 8px;
  }

  .feedback-question {
    margin: 0;
    margin-inline-end: 4px;
    font-weight: 600;
  }

  .thumb {
    display: inline-grid;
    place-items: center;
    inline-size: 44px;
    block-size: 44px;
    padding: 0;
    border: 1px solid var(--vac-border);
    border-radius: 50%;
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  .thumb[aria-pressed='true'] {
    border-color: var(--vac-accent);
    background: var(--vac-accent);
    color: var(--vac-accent-text);
  }

  .thumb .icon {
    inline-size: 18px;
    block-size: 18px;
  }

  .feedback-label {
    font-size: 13px;
    color: var(--vac-text-muted);
  }

  .feedback textarea {
    box-sizing: border-box;
    inline-size: 100%;
    min-block-size: 56px;
    padding: 8px 10px;
    border: 1px solid var(--vac-border);
    border-radius: 12px;
    background: var(--vac-background);
    color: var(--vac-text);
    font: inherit;
    font-size: 14px;
    resize: vertical;
  }

  .feedback-actions {
    display: flex;
    justify-content: flex-end;
    gap: 8px;
  }

  .pill.secondary {
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  .feedback-thanks {
    text-align: center;
    font-size: 14px;
    color: var(--vac-text);
  }
`;
