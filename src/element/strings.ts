// Every string the element shows or announces, in English, and the helpers that pick among them.
// The idle card's English strings live in strings-idle.ts (the idle entry); the rest come with the
// call chunk. Other languages are modules of their own (strings-ar.ts), loaded when `lang` asks
// for one; languages.ts gathers them for the package's `builtInStrings`.
import type { EndReason } from '../call/types.js';
import { enIdle } from './strings-idle.js';
import type { ConsentStringKey } from '../features/consent/consent-strings.js';
import type { FeedbackStringKey, FeedbackStrings } from '../features/feedback/feedback-strings.js';
import type { PersistStringKey, PersistStrings } from '../features/persist/persist-strings.js';
import { featuresEn, type FeatureStrings } from '../features/registry.js';

/**
 * Every string; each optional feature's are in its folder (`*-strings.ts`), joined by its row in
 * features/registry.ts, or, where only the feature's own chunk shows them (the rating, persist's
 * tap to continue), by name here.
 */
export interface VoiceAgentCallStrings extends FeatureStrings, FeedbackStrings, PersistStrings {
  /** Default title (the `title` slot replaces it). */
  title: string;
  /** Accessible name of the floating launcher (a disclosure button: `aria-expanded` says open or closed). */
  launcherLabel: string;
  /** The close button in the floating panel's header. */
  closePanel: string;
  /** Shown under the title before the first call. */
  idleHint: string;

  statusIdle: string;
  statusStarting: string;
  statusConnecting: string;
  /** Announced when the call connects. */
  statusInCall: string;
  /** Announced instead when the call connects with the microphone muted (muted before the call). */
  statusInCallMuted: string;
  statusListening: string;
  statusSpeaking: string;
  statusMuted: string;
  statusReconnecting: string;
  statusEnding: string;
  statusEnded: string;
  /** Status and summary after a call that ended before it connected (busy, no microphone, …): no "Call ended", no duration. */
  statusNotConnected: string;

  startCall: string;
  callAgain: string;
  tryAgain: string;
  hangup: string;
  /** Label of the mute toggle, muted or not: `aria-pressed="true"` says the microphone is muted. */
  mute: string;
  /** @deprecated Not shown: the mute toggle keeps one name, `mute`, and says its state with `aria-pressed`. */
  unmute: string;
  enableAudio: string;
  audioBlockedHint: string;

  /** Shown (and announced once) while the connection's quality stays poor or lost. */
  weakConnection: string;
  /** The devices toggle (`controls="devices"`) and the menu's name. */
  devices: string;
  /** The menu's groups. */
  microphone: string;
  speaker: string;
  /** A device the browser lists without a name: `{n}` is its number in the list. */
  unnamedMicrophone: string;
  unnamedSpeaker: string;
  /** Shown and announced when the microphone in use went away: `{device}` is the one the call uses now. */
  microphoneLost: string;
  /** Shown when a chosen microphone or speaker could not be used. */
  deviceFailed: string;

  timerLabel: string;
  transcriptLabel: string;
  transcriptEmpty: string;
  speakerAI: string;
  speakerHuman: string;
  jumpToLatest: string;
  /** The button above a long transcript that reveals older lines. */
  showEarlier: string;

  /** Short end reasons for the summary line under "Call ended" ("Agent hung up · 01:23"; the first letter is capitalised there). */
  reasonUserHangup: string;
  reasonAgentHangup: string;
  reasonTimeout: string;
  reasonSilence: string;
  reasonTransferred: string;
  reasonBusy: string;
  reasonCancelled: string;
  reasonFailed: string;
  reasonNetworkLost: string;
  reasonAgentUnavailable: string;
  reasonMicrophoneDenied: string;
  reasonMicrophoneUnavailable: string;
  reasonSetupFailed: string;
  reasonElementRemoved: string;
  reasonPageUnload: string;
  reasonUnsupportedBrowser: string;
  /** `moved`: another tab of this site took the call up (a duplicated tab); this one let go. */
  reasonMoved: string;
  /** The ended card's status for `moved`. */
  statusMoved: string;

  /** Error titles and what to do about them. */
  errorMicrophoneDeniedTitle: string;
  errorMicrophoneDeniedHelp: string;
  errorMicrophoneUnavailableTitle: string;
  errorMicrophoneUnavailableHelp: string;
  errorBusyTitle: string;
  errorBusyHelp: string;
  errorSetupFailedTitle: string;
  errorSetupFailedHelp: string;
  errorAgentUnavailableTitle: string;
  errorAgentUnavailableHelp: string;
  errorNetworkLostTitle: string;
  errorNetworkLostHelp: string;
  errorFailedTitle: string;
  errorFailedHelp: string;
  /** The agent hung up after a long silence: the visitor may not have been heard. */
  errorSilenceTitle: string;
  errorSilenceHelp: string;
  /** `network-lost` while the companion still answered afterwards: the visitor's own connection works. */
  errorConnectionDroppedHelp: string;
  /** Another widget on the page has a live call (`call_in_progress`): one live call per page. */
  errorCallInProgressTitle: string;
  errorCallInProgressHelp: string;
  /** The browser lacks what a call needs (`unsupported-browser`); shown for good, no "Try again". */
  errorUnsupportedBrowserTitle: string;
  errorUnsupportedBrowserHelp: string;
  /** `unsupported-browser` because the page is not https: no browser could use the microphone here. */
  errorInsecurePageHelp: string;
  /** The `fallback` link's text: a `tel:` link shows the number after `fallbackPhone`. */
  fallbackPhone: string;
  fallbackLink: string;

  /** The consent gate (the `consent` attribute or slot): its label, announced with the disclosure. */
  consentLabel: string;
  /** The gate's button that agrees and starts the call. */
  consentAgree: string;
  /** The gate's button that goes back to idle without calling. */
  consentCancel: string;
}

export type VoiceAgentCallStringKey = keyof VoiceAgentCallStrings;

/**
 * English: the idle card's, and the rest but the consent gate's, the rating's and persist's, which
 * come with their own chunks (features/consent/consent-strings.ts, features/feedback/feedback-strings.ts,
 * features/persist/persist-strings.ts).
 */
export const en: Omit<VoiceAgentCallStrings, ConsentStringKey | FeedbackStringKey | PersistStringKey> = {
  ...enIdle,
  ...featuresEn,
  statusConnecting: 'Connecting…',
  statusInCall: 'Call connected',
  statusInCallMuted: 'Call connected. Your microphone is muted.',
  statusListening: 'Listening',
  statusSpeaking: 'Assistant is speaking',
  statusMuted: 'You are muted',
  statusReconnecting: 'Reconnecting…',
  statusEnding: 'Ending the call…',
  statusEnded: 'Call ended',
  statusNotConnected: 'Call not connected',

  callAgain: 'Call again',
  tryAgain: 'Try again',
  hangup: 'Hang up',
  mute: 'Mute',
  unmute: 'Unmute',
  enableAudio: 'Tap to enable audio',
  audioBlockedHint: 'Your browser paused the assistant’s voice.',

  weakConnection: 'Weak connection',
  devices: 'Microphone and speaker',
  microphone: 'Microphone',
  speaker: 'Speaker',
  unnamedMicrophone: 'Microphone {n}',
  unnamedSpeaker: 'Speaker {n}',
  microphoneLost: 'Your microphone was disconnected. Now using {device}.',
  deviceFailed: 'That device could not be used. The call keeps the one it had.',

  timerLabel: 'Call duration',
  transcriptLabel: 'Conversation',
  transcriptEmpty: 'The conversation will appear here.',
  speakerAI: 'Assistant',
  speakerHuman: 'You',
  jumpToLatest: 'Jump to latest',
  showEarlier: 'Show earlier lines',

  reasonUserHangup: 'you hung up',
  reasonAgentHangup: 'agent hung up',
  reasonTimeout: 'time limit reached',
  reasonSilence: 'ended after silence',
  reasonTransferred: 'transferred',
  reasonBusy: 'lines busy',
  reasonCancelled: 'cancelled',
  reasonFailed: 'call failed',
  reasonNetworkLost: 'connection lost',
  reasonAgentUnavailable: 'assistant unavailable',
  reasonMicrophoneDenied: 'microphone blocked',
  reasonMicrophoneUnavailable: 'no microphone',
  reasonSetupFailed: 'could not start',
  reasonElementRemoved: 'widget closed',
  reasonPageUnload: 'page closed',
  reasonUnsupportedBrowser: 'browser not supported',
  reasonMoved: 'continued in another tab',
  statusMoved: 'This call continued in another tab',

  errorMicrophoneDeniedTitle: 'Microphone access is blocked',
  errorMicrophoneDeniedHelp:
    'Allow the microphone for this site in your browser’s site settings (the icon next to the address bar), then try again.',
  errorMicrophoneUnavailableTitle: 'No microphone found',
  errorMicrophoneUnavailableHelp: 'Connect a microphone, or close other apps that use it, then try again.',
  errorBusyTitle: 'All lines are busy',
  errorBusyHelp: 'Please try again in a few minutes.',
  errorSetupFailedTitle: 'The call could not be set up',
  errorSetupFailedHelp: 'Please try again later.',
  errorAgentUnavailableTitle: 'The assistant did not answer',
  errorAgentUnavailableHelp: 'Please try again in a moment.',
  errorNetworkLostTitle: 'The connection was lost',
  errorNetworkLostHelp: 'Check your internet connection, then call again.',
  errorFailedTitle: 'The call failed',
  errorFailedHelp: 'Please try again later.',
  errorSilenceTitle: 'The assistant could not hear you',
  errorSilenceHelp: 'Check that your microphone is on, not muted and chosen in your browser, then call again.',
  errorConnectionDroppedHelp: 'The call’s connection dropped. Please call again.',
  errorCallInProgressTitle: 'Another call is in progress',
  errorCallInProgressHelp: 'Hang up the call that is already on this page, then start this one.',
  errorUnsupportedBrowserTitle: 'This browser can’t place voice calls',
  errorUnsupportedBrowserHelp: 'Open this page in a current version of Chrome, Edge, Firefox or Safari.',
  errorInsecurePageHelp: 'This page is not served securely (https), so no browser can use the microphone here.',
  fallbackPhone: 'Call us by phone:',
  fallbackLink: 'Other ways to reach us',
};

/** An end reason as its strings spell it: `user-hangup` is `UserHangup` (`reasonUserHangup`, `errorUserHangupTitle`). */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<S>;

function pascal<R extends EndReason>(reason: R): Pascal<R> {
  return reason.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase()) as Pascal<R>;
}

export function reasonText(strings: VoiceAgentCallStrings, reason: EndReason): string {
  return strings[`reason${pascal(reason)}`];
}

/** End reasons that are problems the visitor may act on: each has an `error…Title` and `error…Help`. */
const ERROR_REASONS = [
  'microphone-denied',
  'microphone-unavailable',
  'busy',
  'setup-failed',
  'agent-unavailable',
  'network-lost',
  'failed',
  'silence',
  'unsupported-browser',
] as const satisfies readonly EndReason[];
type ErrorReason = (typeof ERROR_REASONS)[number];

/**
 * What went wrong and what to do, for end reasons the visitor may act on. `serviceReached`: the
 * dial record could still be read after the end, so a lost connection was not the visitor's
 * internet (a media server drop): no advice to check it. `insecurePage`: an unsupported browser
 * only because the page is not https, which another browser would not change.
 */
export function errorText(
  strings: VoiceAgentCallStrings,
  reason: EndReason,
  { serviceReached = false, insecurePage = false, callInProgress = false } = {},
): { title: string; help: string } | null {
  if (callInProgress) return { title: strings.errorCallInProgressTitle, help: strings.errorCallInProgressHelp };
  if (!(ERROR_REASONS as readonly EndReason[]).includes(reason)) return null;
  const name = pascal(reason as ErrorReason);
  let help = strings[`error${name}Help`];
  if (reason === 'network-lost' && serviceReached) help = strings.errorConnectionDroppedHelp;
  if (reason === 'unsupported-browser' && insecurePage) help = strings.errorInsecurePageHelp;
  return { title: strings[`error${name}Title`], help };
}

/** `mm:ss` (or `h:mm:ss`) for a duration in milliseconds. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return `${hours > 0 ? `${hours}:` : ''}${String(minutes).padStart(2, '0')}:${seconds}`;
}
