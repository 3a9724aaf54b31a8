// Styles of what only a call shows (status colours, timer, transcript, notices, error, summary,
// mute and hang-up): the lazy call chunk adopts them into each element's shadow root before the
// first in-call render. Nothing here changes the idle card (the :host rules only set custom
// properties no idle rule reads), so adopting them never moves it.
import { css } from 'lit';

export const callStyles = css`
  :host {
    --vac-ai-bubble-background: #f1f2f6;
    --vac-ai-bubble-text: var(--vac-text);
    --vac-human-bubble-background: var(--vac-accent);
    --vac-human-bubble-text: var(--vac-accent-text);
    --vac-danger: #dc2626;
    --vac-danger-text: #ffffff;
    --vac-live: #16a34a;
    --vac-warning: #d97706;
    --vac-transcript-height: 260px;
  }

  :host([theme='dark']) {
    --vac-ai-bubble-background: #262833;
    --vac-live: #22c55e;
    --vac-warning: #f59e0b;
  }

  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light']):not([theme='dark'])) {
      --vac-ai-bubble-background: #262833;
      --vac-live: #22c55e;
      --vac-warning: #f59e0b;
    }
  }

  .root[data-state='starting'] .status-dot,
  .root[data-state='connecting'] .status-dot,
  .root[data-state='reconnecting'] .status-dot {
    background: var(--vac-warning);
    opacity: 1;
    animation: vac-blink 1.2s ease-in-out infinite;
  }

  .root[data-state='in-call'] .status-dot {
    background: var(--vac-live);
    opacity: 1;
  }

  .root[data-error] .status-dot {
    background: var(--vac-danger);
    opacity: 1;
  }

  .timer {
    flex: none;
    padding: 3px 10px;
    border-radius: 999px;
    background: var(--vac-surface);
    font-size: 13px;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    color: var(--vac-text);
  }

  .avatar.speaking::after {
    opacity: 0.55;
    animation: vac-ring 1.4s ease-out infinite;
  }

  .speaking .bars i {
    animation: vac-bar 0.9s ease-in-out infinite;
  }

  .speaking .bars i:nth-child(2) {
    animation-delay: -0.3s;
  }

  .speaking .bars i:nth-child(3) {
    animation-delay: -0.6s;
  }

  .speaking .bars i:nth-child(4) {
    animation-delay: -0.15s;
  }

  /* ---- voice presence: a live level meter per side (levels written per frame by VoicePresence) ---- */

  .voices {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: 8px;
  }

  .voice {
    --level: var(--vac-agent-level, 0);
    display: flex;
    align-items: center;
    gap: 10px;
    min-inline-size: 0;
    block-size: 44px;
    padding: 0 12px;
    border-radius: 14px;
    background: var(--vac-surface);
    color: var(--vac-text-muted);
    font-size: 13px;
    font-weight: 600;
    transition: background-color 0.2s ease, color 0.2s ease;
  }

  .voice.visitor {
    --level: var(--vac-visitor-level, 0);
  }

  .voice[data-speaking] {
    background: color-mix(in srgb, var(--vac-accent) 14%, var(--vac-background));
    color: var(--vac-text);
  }

  .who {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .meter {
    display: flex;
    flex: none;
    align-items: center;
    gap: 3px;
    block-size: 24px;
  }

  .meter i {
    --k: 0.6;
    inline-size: 4px;
    block-size: 100%;
    border-radius: 2px;
    background: currentColor;
    opacity: 0.55;
    transform: scaleY(calc(0.14 + var(--level) * var(--k)));
  }

  .meter i:nth-child(2),
  .meter i:nth-child(4) {
    --k: 0.8;
  }

  .meter i:nth-child(3) {
    --k: 0.86;
  }

  .voice[data-speaking] .meter i {
    background: var(--vac-accent);
    opacity: 1;
  }

  .notice {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 10px 12px;
    border-radius: 14px;
    background: color-mix(in srgb, var(--vac-accent) 10%, var(--vac-background));
  }

  .notice p {
    flex: 1;
    margin: 0;
    font-size: 13px;
  }

  .pill {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    flex: none;
    padding: 6px 12px;
    border: 0;
    border-radius: 999px;
    background: var(--vac-accent);
    color: var(--vac-accent-text);
    font-size: 13px;
    font-weight: 600;
  }

  .pill .icon {
    inline-size: 16px;
    block-size: 16px;
  }

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

  .entry {
    max-inline-size: 85%;
    padding: 8px 12px;
    border-radius: 16px;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    animation: vac-in 0.18s ease-out;
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

  .entry.interim {
    font-style: italic;
    opacity: 0.72;
  }

  .entry.ai + .entry.ai {
    border-start-start-radius: 6px;
  }

  .entry.human + .entry.human {
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

  .summary {
    margin: 0;
    text-align: center;
    font-size: 13px;
    color: var(--vac-text-muted);
    font-variant-numeric: tabular-nums;
  }

  /* Ending: the controls keep focus (aria-disabled) but look and act disabled. */
  .control[aria-disabled='true'],
  .control[aria-disabled='true']:hover,
  .control[aria-disabled='true']:active {
    cursor: default;
    opacity: 0.55;
    filter: none;
    transform: none;
  }

  .mute {
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  .mute[aria-pressed='true'] {
    background: var(--vac-text);
    color: var(--vac-background);
  }

  .hangup {
    background: var(--vac-danger);
    color: var(--vac-danger-text);
  }

  .launcher .badge {
    position: absolute;
    inset-block-start: 2px;
    inset-inline-end: 2px;
    inline-size: 14px;
    block-size: 14px;
    border-radius: 50%;
    background: var(--vac-live);
    border: 2px solid var(--vac-background);
  }

  .panel .transcript {
    max-block-size: min(var(--vac-transcript-height), 40vh);
  }

  /* ---- motion ---- */

  @keyframes vac-bar {
    0%,
    100% {
      transform: scaleY(0.3);
    }
    50% {
      transform: scaleY(1);
    }
  }

  @keyframes vac-ring {
    0% {
      transform: scale(0.95);
      opacity: 0.6;
    }
    100% {
      transform: scale(1.25);
      opacity: 0;
    }
  }

  @keyframes vac-blink {
    50% {
      opacity: 0.35;
    }
  }

  @keyframes vac-in {
    from {
      opacity: 0;
      transform: translateY(4px);
    }
  }

  @media (prefers-reduced-motion: reduce) {
    /* Still show who is speaking, without movement. */
    .speaking .bars i {
      transform: scaleY(0.9);
    }

    .speaking .bars i:nth-child(odd) {
      transform: scaleY(0.6);
    }

    .avatar.speaking::after {
      opacity: 0.8;
    }

    /* The meters stand still: only which side speaks shows. */
    .meter i {
      transform: scaleY(0.3);
    }

    .voice[data-speaking] .meter i {
      transform: scaleY(0.85);
    }

    .voice[data-speaking] .meter i:nth-child(odd) {
      transform: scaleY(0.55);
    }
  }
`;
