// Styles of what only a call shows, in the lazy call chunk: the custom properties only a call
// reads (defaults on :host, dark values through theme.ts's darkScheme()), then a sheet per state
// (in-call-styles.ts, controls-styles.ts, transcript-styles.ts, ended-styles.ts,
// weak-connection-styles.ts), in this order; an optional part's styles come with its chunk
// (feature-parts.ts) and are adopted after these. The call chunk adopts
// them into each element's shadow root before the first in-call render. Nothing here changes the
// idle card (the :host rules only set custom properties no idle rule reads), so adopting them
// never moves it.
import { css } from 'lit';
import { controlsStyles } from './controls-styles.js';
import { endedStyles } from './ended-styles.js';
import { inCallStyles } from './in-call-styles.js';
import { darkScheme } from './theme.js';
import { transcriptStyles } from './transcript-styles.js';
import { weakConnectionStyles } from '../features/quality/weak-connection-styles.js';

const callTheme = css`${css`
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
`}${darkScheme(css`
  --vac-ai-bubble-background: #262833;
  --vac-live: #22c55e;
  --vac-warning: #f59e0b;
`)}`;

export const callStyles = css`${callTheme}${inCallStyles}${controlsStyles}${transcriptStyles}${endedStyles}${weakConnectionStyles}`;
