// Styles of the idle state of <voice-agent-call>: the card and the floating launcher and panel,
// all the idle entry shows (the public knobs, the `--vac-*` custom properties, are in theme.ts).
// Layout uses logical properties so RTL languages mirror without extra rules. What only a call
// shows comes with the call chunk (call-styles.ts and the per-state sheets it lists).
import { css } from 'lit';
import { theme } from './theme.js';

export const styles = [
  ...theme,
  css`
  :host {
    display: block;
    font-family: var(--vac-font);
    color: var(--vac-text);
  }

  :host([hidden]) {
    display: none;
  }

  :host([layout='floating']) {
    display: contents;
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
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
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

  /* The panel's close: a 44 px target where the pointer is a finger (WCAG 2.5.5). */
  @media (pointer: coarse) {
    .icon-button {
      inline-size: 44px;
      block-size: 44px;
    }
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

  /* Idle: a slow breath around the avatar, an invitation to call (still under reduced motion). */
  .root[data-state='idle'] .avatar::after {
    opacity: 0.5;
    animation: vac-breathe 2.8s ease-in-out infinite;
  }

  .avatar.connecting::after {
    opacity: 1;
    border-color: var(--vac-accent) transparent transparent;
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

  .control:hover {
    filter: brightness(1.06);
  }

  .control:active {
    transform: scale(0.98);
  }

  .call {
    background: linear-gradient(135deg, var(--vac-accent), color-mix(in srgb, var(--vac-accent) 75%, var(--vac-accent-2)));
    color: var(--vac-accent-text);
    box-shadow: 0 6px 18px -8px var(--vac-accent);
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

  /* A panel taller than the screen allows (a keypad or a device menu open on a phone) scrolls its
     body: the controls row stays whole at the bottom, above the launcher, never under the body. */
  .panel .body {
    overflow-y: auto;
    overscroll-behavior: contain;
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

  @keyframes vac-spin {
    to {
      transform: rotate(360deg);
    }
  }

  @keyframes vac-breathe {
    50% {
      opacity: 0.12;
      transform: scale(1.14);
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
  }
`,
];
