// Styles of a call that is up, from `starting` to `ending`: the status dot while connecting and in
// the call, the timer, the speaking avatar, the voice meters, the blocked-audio notice, mute and
// hang-up, the launcher's live badge. In the lazy call chunk (call-styles.ts lists the sheets).
import { css } from 'lit';

export const inCallStyles = css`
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

  /* On hold: the dot turns amber and stands still; the status line says "On hold". */
  .root[data-state='in-call'][data-held] .status-dot {
    background: var(--vac-warning);
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

  /* Where the pointer is a finger, every pill (Skip, Send, Enable audio, Show earlier, Jump to
     latest) is a 44 px target (WCAG 2.5.5, both platforms' guidelines). */
  @media (pointer: coarse) {
    .pill {
      min-block-size: 44px;
      padding-inline: 16px;
    }
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
