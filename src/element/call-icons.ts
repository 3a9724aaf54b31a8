// The in-call icons (lazy call chunk); same grid and rules as icons.ts.
import { svg } from 'lit';
import { handset, icon } from './icons.js';

export const hangupIcon = icon(svg`<g transform="rotate(135 12 12)">${handset}</g>`);
export const micIcon = icon(
  svg`<rect x="9" y="2" width="6" height="12" rx="3"/><path d="M19 10v2a7 7 0 0 1-14 0v-2"/><path d="M12 19v3"/>`,
);
export const micOffIcon = icon(
  svg`<path d="M2 2l20 20"/><path d="M9 9v3a3 3 0 0 0 5.1 2.1"/><path d="M15 9.3V5a3 3 0 0 0-5.9-.6"/><path d="M17 16.9A7 7 0 0 1 5 12v-2"/><path d="M19 10v2c0 .8-.1 1.5-.4 2.2"/><path d="M12 19v3"/>`,
);
export const speakerIcon = icon(
  svg`<path d="M11 5 6 9H2v6h4l5 4z"/><path d="M15.5 8.5a5 5 0 0 1 0 7"/><path d="M19 5a10 10 0 0 1 0 14"/>`,
);
export const alertIcon = icon(svg`<circle cx="12" cy="12" r="10"/><path d="M12 8v4"/><path d="M12 16h.01"/>`);
export const arrowDownIcon = icon(svg`<path d="M12 5v14"/><path d="m19 12-7 7-7-7"/>`);
export const devicesIcon = icon(
  svg`<path d="M3 18v-6a9 9 0 0 1 18 0v6"/><path d="M21 19a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3z"/><path d="M3 19a2 2 0 0 0 2 2h1a2 2 0 0 0 2-2v-3a2 2 0 0 0-2-2H3z"/>`,
);
