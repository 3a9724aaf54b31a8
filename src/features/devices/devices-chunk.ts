// The devices chunk: the microphone and speaker menu (devices-menu.ts) and the session's side of
// choosing and losing devices (devices-feature.ts), one file for both, since the menu's choice
// needs the session's side. Loaded the first time the visitor opens the menu (devices-part.ts), or
// the session needs it (devices-side.ts): a call that does neither downloads none of it.
export { DevicesFeature } from './devices-feature.js';
export { DevicesMenu, menuStyles } from './devices-menu.js';
