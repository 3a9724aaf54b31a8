// The theme of <voice-agent-call>: the `--vac-*` custom properties the idle card and launcher read,
// with their defaults on :host and their dark values, and `darkScheme()`, the one place that says
// when dark values apply. The call chunk's sheet (call-styles.ts) gives the properties only a call
// reads the same way.
import { css, type CSSResult } from 'lit';

/**
 * Dark values of custom properties, each written once: they apply with `theme="dark"`, and with
 * `theme="auto"` (or none) under a dark `prefers-color-scheme`.
 */
export const darkScheme = (values: CSSResult): CSSResult =>
  css`:host([theme=dark]){${values}}@media (prefers-color-scheme:dark){:host(:not([theme=light]):not([theme=dark])){${values}}}`;

export const theme = [
  css`
  :host {
    --vac-accent: #4f46e5;
    --vac-accent-text: #ffffff;
    --vac-accent-2: #c026d3;
    --vac-background: #ffffff;
    --vac-surface: #f3f4f8;
    --vac-text: #15161c;
    --vac-text-muted: #5c6070;
    --vac-border: rgba(17, 19, 38, 0.1);
    --vac-radius: 20px;
    --vac-font: ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    --vac-shadow: 0 1px 2px rgba(16, 18, 40, 0.06), 0 18px 48px -16px rgba(16, 18, 40, 0.28);
    --vac-width: 360px;
    --vac-launcher-size: 56px;
    --vac-offset: 20px;
    --vac-z-index: 2147483000;
    color-scheme: light;
  }
`,
  darkScheme(css`
  --vac-accent: #5850ec;
  --vac-background: #15161d;
  --vac-surface: #20212b;
  --vac-text: #f1f2f6;
  --vac-text-muted: #a4a7b8;
  --vac-border: rgba(255, 255, 255, 0.1);
  --vac-shadow: 0 1px 2px rgba(0, 0, 0, 0.4), 0 18px 48px -16px rgba(0, 0, 0, 0.7);
  color-scheme: dark;
`),
];
