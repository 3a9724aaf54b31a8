// Styles of <voice-agent-call>. Public knobs are the `--vac-*` custom properties (defaults on
// :host, dark values for theme=dark and for theme=auto under a dark colour scheme); layout uses
// logical properties so RTL languages mirror without extra rules.
import { css } from 'lit';

export const styles = css`
  :host {
    --vac-accent: #4f46e5;
    --vac-accent-text: #ffffff;
    --vac-accent-2: #c026d3;
    --vac-background: #ffffff;
    --vac-surface: #f3f4f8;
    --vac-text: #15161c;
    --vac-text-muted: #5c6070;
    --vac-border: rgba(17, 19, 38, 0.1);
    --vac-ai-bubble-background: #f1f2f6;
    --vac-ai-bubble-text: var(--vac-text);
    --vac-human-bubble-background: var(--vac-accent);
    --vac-human-bubble-text: var(--vac-accent-text);
    --vac-danger: #dc2626;
    --vac-danger-text: #ffffff;
    --vac-live: #16a34a;
    --vac-warning: #d97706;
    --vac-radius: 20px;
    --vac-font: ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    --vac-shadow: 0 1px 2px rgba(16, 18, 40, 0.06), 0 18px 48px -16px rgba(16, 18, 40, 0.28);
    --vac-width: 360px;
    --vac-transcript-height: 260px;
    --vac-launcher-size: 56px;
    --vac-offset: 20px;
    --vac-z-index: 2147483000;

    display: block;
    color-scheme: light;
    font-family: var(--vac-font);
    color: var(--vac-text);
  }

  :host([hidden]) {
    display: none;
  }

  :host([layout='floating']) {
    display: contents;
  }

  :host([theme='dark']) {
    --vac-accent: #5850ec;
    --vac-background: #15161d;
    --vac-surface: #20212b;
    --vac-text: #f1f2f6;
    --vac-text-muted: #a4a7b8;
    --vac-border: rgba(255, 255, 255, 0.1);
    --vac-ai-bubble-background: #262833;
    --vac-shadow: 0 1px 2px rgba(0, 0, 0, 0.4), 0 18px 48px -16px rgba(0, 0, 0, 0.7);
    --vac-live: #22c55e;
    --vac-warning: #f59e0b;
    color-scheme: dark;
  }

  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light']):not([theme='dark'])) {
      --vac-accent: #5850ec;
      --vac-background: #15161d;
      --vac-surface: #20212b;
      --vac-text: #f1f2f6;
      --vac-text-muted: #a4a7b8;
      --vac-border: rgba(255, 255, 255, 0.1);
      --vac-ai-bubble-background: #262833;
      --vac-shadow: 0 1px 2px rgba(0, 0, 0, 0.4), 0 18px 48px -16px rgba(0, 0, 0, 0.7);
      --vac-live: #22c55e;
      --vac-warning: #f59e0b;
      color-scheme: dark;
    }
  }

  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  .sr-only {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
    -webkit-tap-highlight-color: transparent;
  }

  button:focus-visible,
  [tabindex]:focus-visible {
    outline: 2px solid var(--vac-accent);
    outline-offset: 2px;
  }

  button:disabled {
    cursor: default;
    opacity: 0.55;
  }

  .icon {
    inline-size: 20px;
    block-size: 20px;
    flex: none;
  }

  /* ---- the card (inline) and the panel (floating) ---- */

  .card {
    position: relative;
    display: flex;
    flex-direction: column;
    inline-size: var(--vac-width);
    max-inline-size: 100%;
    background: var(--vac-background);
    color: var(--vac-text);
    border: 1px solid var(--vac-border);
    border-radius: var(--vac-radius);
    box-shadow: var(--vac-shadow);
    font-size: 14px;
    line-height: 1.45;
    overflow: hidden;
  }

  .header {
    display: flex;
    align-items: center;
    gap: 12px;
    padding: 16px 16px 12px;
  }

  .heading {
    display: flex;
    flex-direction: column;
    gap: 2px;
    min-inline-size: 0;
    flex: 1;
  }

  .title {
    font-size: 15px;
    font-weight: 650;
    letter-spacing: -0.01em;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .status {
    display: flex;
    align-items: center;
    gap: 6px;
    font-size: 13px;
    color: var(--vac-text-muted);
    min-inline-size: 0;
  }

  .status-dot {
    inline-size: 8px;
    block-size: 8px;
    border-radius: 50%;
    flex: none;
    background: var(--vac-text-muted);
    opacity: 0.6;
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

  .icon-button {
    display: inline-grid;
    place-items: center;
    flex: none;
    inline-size: 32px;
    block-size: 32px;
    padding: 0;
    border: 0;
    border-radius: 50%;
    background: transparent;
    color: var(--vac-text-muted);
  }

  .icon-button:hover {
    background: var(--vac-surface);
    color: var(--vac-text);
  }

  /* ---- the avatar: logo slot + agent-speaking indicator ---- */

  .avatar {
    position: relative;
    display: grid;
    place-items: center;
    flex: none;
    inline-size: 44px;
    block-size: 44px;
    border-radius: 50%;
    color: var(--vac-accent-text);
    background: linear-gradient(135deg, var(--vac-accent), var(--vac-accent-2));
  }

  .avatar::after {
    content: '';
    position: absolute;
    inset: -4px;
    border-radius: 50%;
    border: 2px solid var(--vac-accent);
    opacity: 0;
    transition: opacity 0.2s ease;
  }

  .avatar.speaking::after {
    opacity: 0.55;
    animation: vac-ring 1.4s ease-out infinite;
  }

  .avatar.connecting::after {
    opacity: 1;
    border-color: var(--vac-accent) transparent transparent transparent;
    animation: vac-spin 0.9s linear infinite;
  }

  ::slotted([slot='logo']) {
    inline-size: 100%;
    block-size: 100%;
    border-radius: 50%;
    object-fit: cover;
  }

  .bars {
    display: flex;
    align-items: center;
    gap: 3px;
    block-size: 18px;
  }

  .bars i {
    display: block;
    inline-size: 3px;
    block-size: 100%;
    border-radius: 3px;
    background: currentColor;
    transform: scaleY(0.3);
    transition: transform 0.25s ease;
  }

  .bars i:nth-child(2),
  .bars i:nth-child(3) {
    transform: scaleY(0.55);
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

  /* ---- body ---- */

  .body {
    display: flex;
    flex-direction: column;
    gap: 12px;
    padding: 0 16px;
    min-block-size: 0;
  }

  .hint {
    margin: 0;
    color: var(--vac-text-muted);
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

  /* ---- controls ---- */

  .controls {
    display: flex;
    gap: 10px;
    padding: 14px 16px 16px;
  }

  .control {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 8px;
    flex: 1;
    min-block-size: 46px;
    min-inline-size: 0;
    padding: 0 14px;
    white-space: nowrap;
    border: 0;
    border-radius: 999px;
    font-size: 15px;
    font-weight: 600;
    transition:
      transform 0.12s ease,
      filter 0.15s ease;
  }

  .control:not(:disabled):hover {
    filter: brightness(1.06);
  }

  .control:not(:disabled):active {
    transform: scale(0.98);
  }

  .call {
    background: linear-gradient(135deg, var(--vac-accent), color-mix(in srgb, var(--vac-accent) 75%, var(--vac-accent-2)));
    color: var(--vac-accent-text);
    box-shadow: 0 6px 18px -8px var(--vac-accent);
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

  /* ---- floating layout ---- */

  .launcher {
    position: fixed;
    inset-block-end: var(--vac-offset);
    right: var(--vac-offset);
    z-index: var(--vac-z-index);
    display: grid;
    place-items: center;
    inline-size: var(--vac-launcher-size);
    block-size: var(--vac-launcher-size);
    padding: 0;
    border: 0;
    border-radius: 50%;
    color: var(--vac-accent-text);
    background: linear-gradient(135deg, var(--vac-accent), var(--vac-accent-2));
    box-shadow: 0 10px 28px -8px color-mix(in srgb, var(--vac-accent) 70%, transparent), var(--vac-shadow);
    transition: transform 0.15s ease;
  }

  .launcher:hover {
    transform: scale(1.05);
  }

  .launcher .icon {
    inline-size: 24px;
    block-size: 24px;
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

  .panel {
    position: fixed;
    inset-block-end: calc(var(--vac-offset) + var(--vac-launcher-size) + 12px);
    right: var(--vac-offset);
    z-index: var(--vac-z-index);
    inline-size: min(var(--vac-width), calc(100vw - 2 * var(--vac-offset)));
    max-block-size: calc(100vh - 2 * var(--vac-offset) - var(--vac-launcher-size) - 12px);
    animation: vac-open 0.2s ease-out;
    transform-origin: bottom right;
  }

  .panel[hidden] {
    display: none;
  }

  .panel .card {
    inline-size: 100%;
    max-block-size: inherit;
  }

  .panel .transcript {
    max-block-size: min(var(--vac-transcript-height), 40vh);
  }

  .root.left .launcher,
  .root.left .panel {
    right: auto;
    left: var(--vac-offset);
  }

  .root.left .panel {
    transform-origin: bottom left;
  }

  @media (max-width: 480px) {
    .panel {
      --vac-offset: 12px;
    }
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

  @keyframes vac-spin {
    to {
      transform: rotate(360deg);
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

  @keyframes vac-open {
    from {
      opacity: 0;
      transform: translateY(8px) scale(0.98);
    }
  }

  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
    }

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
  }
`;
