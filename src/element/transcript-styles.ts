// Styles of the transcript log, shown during a call and after it (the bubbles, "Show earlier
// lines", "Jump to latest"). In the lazy call chunk (call-styles.ts lists the sheets).
import { css } from 'lit';

export const transcriptStyles = css`
  .transcript-wrap {
    position: relative;
  }

  .transcript {
    display: flex;
    flex-direction: column;
    gap: 6px;
    min-block-size: 96px;
    max-block-size: var(--vac-transcript-height);
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 10px 2px 8px;
    scrollbar-width: thin;
    /* Lines scrolling away fade out under the header instead of being cut. */
    mask-image: linear-gradient(to bottom, transparent 0, #000 14px);
  }

  /* Each bubble is laid out and painted on its own (layout, paint and style containment): a new
     or changed line does not make the browser lay out or repaint the others. With the CPU
     throttled 4x this cut pre-paint about in half and layout by a quarter per frame in fast-forward
     (issue 42). */
  .entry {
    contain: content;
    max-inline-size: 85%;
    padding: 8px 12px;
    border-radius: 16px;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  /* Only the newest line slides in. Every running animation is restyled each frame, so when lines
     come faster than the animation lasts (interim segments, a fast-forwarded log) animating each
     one made frames of 100 ms on a loaded machine; a line that is no longer the newest stops. */
  .entry:last-child {
    animation: vac-in 0.18s ease-out;
  }

  /* Where a hold began and ended: a quiet rule across the log with its word in the middle. */
  .hold-mark {
    display: flex;
    align-items: center;
    gap: 8px;
    margin-block: 2px;
    font-size: 12px;
    font-weight: 600;
    color: var(--vac-text-muted);
  }

  .hold-mark::before,
  .hold-mark::after {
    content: '';
    flex: 1;
    border-block-start: 1px dashed color-mix(in srgb, var(--vac-text-muted) 45%, transparent);
  }

  .earlier {
    align-self: center;
    margin-block-end: 4px;
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  .entry.ai {
    align-self: flex-start;
    background: var(--vac-ai-bubble-background);
    color: var(--vac-ai-bubble-text);
    border-end-start-radius: 6px;
  }

  .entry.human {
    align-self: flex-end;
    background: var(--vac-human-bubble-background);
    color: var(--vac-human-bubble-text);
    border-end-end-radius: 6px;
  }

  /* A line still being spoken: italic, with a dashed edge. Not faded: its text keeps the bubble's
     full contrast (a 0.72 opacity put the visitor's line at about 3.5:1, under WCAG AA's 4.5:1). */
  .entry.interim {
    font-style: italic;
    outline: 1px dashed color-mix(in srgb, currentColor 60%, transparent);
    outline-offset: -3px;
  }

  /* The same side's next line in a row (transcript-view.ts sets the class: a sibling selector here
     restyled every line each time one was added or removed). */
  .entry.ai.joined {
    border-start-start-radius: 6px;
  }

  .entry.human.joined {
    border-start-end-radius: 6px;
  }

  .empty {
    position: absolute;
    inset: 0;
    display: grid;
    place-items: center;
    padding: 16px;
    text-align: center;
    font-size: 13px;
    color: var(--vac-text-muted);
    pointer-events: none;
  }

  .jump {
    position: absolute;
    inset-block-end: 8px;
    inset-inline-start: 50%;
    transform: translateX(-50%);
    box-shadow: 0 4px 14px -4px rgba(16, 18, 40, 0.35);
  }

  .root[dir='rtl'] .jump {
    transform: translateX(50%);
  }

  .panel .transcript {
    max-block-size: min(var(--vac-transcript-height), 40vh);
  }

  @keyframes vac-in {
    from {
      opacity: 0;
      transform: translateY(4px);
    }
  }
`;
