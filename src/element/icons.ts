// Inline stroke icons (24×24 grid); decorative: every control that shows one also has a label.
// The idle card's icons; the in-call ones are in call-icons.ts (the lazy call chunk).
import { svg, type SVGTemplateResult } from 'lit';

export function icon(body: SVGTemplateResult): SVGTemplateResult {
  return svg`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none"
    stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
}

export const handset = svg`<path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L8.1 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2z"/>`;

export const phoneIcon = icon(handset);
export const closeIcon = icon(svg`<path d="M18 6 6 18"/><path d="m6 6 12 12"/>`);
