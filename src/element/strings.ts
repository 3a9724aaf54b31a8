// Every string the element shows or announces. English is built in, Arabic proves the RTL path;
// the `strings` property overrides any key for any language.
import type { EndReason } from '../call/types.js';

export interface VoiceAgentCallStrings {
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
  statusListening: string;
  statusSpeaking: string;
  statusMuted: string;
  statusReconnecting: string;
  statusEnding: string;
  statusEnded: string;

  startCall: string;
  callAgain: string;
  tryAgain: string;
  hangup: string;
  /** Label of the mute toggle; `aria-pressed` carries whether it is on. */
  mute: string;
  enableAudio: string;
  audioBlockedHint: string;

  timerLabel: string;
  transcriptLabel: string;
  transcriptEmpty: string;
  speakerAI: string;
  speakerHuman: string;
  jumpToLatest: string;
  /** The button above a long transcript that reveals older lines. */
  showEarlier: string;

  /** Short end reasons for the summary line ("Call ended · agent hung up · 1:23"). */
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
}

export type VoiceAgentCallStringKey = keyof VoiceAgentCallStrings;

export const en: VoiceAgentCallStrings = {
  title: 'Voice assistant',
  launcherLabel: 'Voice assistant',
  closePanel: 'Close',
  idleHint: 'Talk with our AI assistant. Your browser will ask to use the microphone.',

  statusIdle: 'Ready to talk',
  statusStarting: 'Preparing the call…',
  statusConnecting: 'Connecting…',
  statusInCall: 'Call connected',
  statusListening: 'Listening',
  statusSpeaking: 'Assistant is speaking',
  statusMuted: 'You are muted',
  statusReconnecting: 'Reconnecting…',
  statusEnding: 'Ending the call…',
  statusEnded: 'Call ended',

  startCall: 'Start call',
  callAgain: 'Call again',
  tryAgain: 'Try again',
  hangup: 'Hang up',
  mute: 'Mute',
  enableAudio: 'Tap to enable audio',
  audioBlockedHint: 'Your browser paused the assistant’s voice.',

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
};

export const ar: VoiceAgentCallStrings = {
  title: 'المساعد الصوتي',
  launcherLabel: 'المساعد الصوتي',
  closePanel: 'إغلاق',
  idleHint: 'تحدّث مع مساعدنا الذكي. سيطلب متصفحك إذن استخدام الميكروفون.',

  statusIdle: 'جاهز للتحدث',
  statusStarting: 'جارٍ تحضير المكالمة…',
  statusConnecting: 'جارٍ الاتصال…',
  statusInCall: 'تم الاتصال',
  statusListening: 'يستمع إليك',
  statusSpeaking: 'المساعد يتحدث',
  statusMuted: 'الميكروفون مكتوم',
  statusReconnecting: 'جارٍ إعادة الاتصال…',
  statusEnding: 'جارٍ إنهاء المكالمة…',
  statusEnded: 'انتهت المكالمة',

  startCall: 'ابدأ المكالمة',
  callAgain: 'اتصل مرة أخرى',
  tryAgain: 'حاول مرة أخرى',
  hangup: 'إنهاء',
  mute: 'كتم',
  enableAudio: 'اضغط لتفعيل الصوت',
  audioBlockedHint: 'أوقف متصفحك صوت المساعد مؤقتًا.',

  timerLabel: 'مدة المكالمة',
  transcriptLabel: 'المحادثة',
  transcriptEmpty: 'ستظهر المحادثة هنا.',
  speakerAI: 'المساعد',
  speakerHuman: 'أنت',
  jumpToLatest: 'الانتقال إلى الأحدث',
  showEarlier: 'عرض الأسطر السابقة',

  reasonUserHangup: 'أنهيت المكالمة',
  reasonAgentHangup: 'أنهى المساعد المكالمة',
  reasonTimeout: 'انتهى الوقت المحدد',
  reasonSilence: 'انتهت بسبب الصمت',
  reasonTransferred: 'تم التحويل',
  reasonBusy: 'الخطوط مشغولة',
  reasonCancelled: 'أُلغيت',
  reasonFailed: 'فشلت المكالمة',
  reasonNetworkLost: 'انقطع الاتصال',
  reasonAgentUnavailable: 'المساعد غير متاح',
  reasonMicrophoneDenied: 'الميكروفون محظور',
  reasonMicrophoneUnavailable: 'لا يوجد ميكروفون',
  reasonSetupFailed: 'تعذّر البدء',
  reasonElementRemoved: 'أُغلقت الأداة',
  reasonPageUnload: 'أُغلقت الصفحة',

  errorMicrophoneDeniedTitle: 'الوصول إلى الميكروفون محظور',
  errorMicrophoneDeniedHelp:
    'اسمح باستخدام الميكروفون لهذا الموقع من إعدادات الموقع في متصفحك (الرمز بجوار شريط العنوان)، ثم حاول مرة أخرى.',
  errorMicrophoneUnavailableTitle: 'لم يُعثر على ميكروفون',
  errorMicrophoneUnavailableHelp: 'وصّل ميكروفونًا أو أغلق التطبيقات الأخرى التي تستخدمه، ثم حاول مرة أخرى.',
  errorBusyTitle: 'جميع الخطوط مشغولة',
  errorBusyHelp: 'يُرجى المحاولة مرة أخرى بعد بضع دقائق.',
  errorSetupFailedTitle: 'تعذّر إعداد المكالمة',
  errorSetupFailedHelp: 'يُرجى المحاولة مرة أخرى لاحقًا.',
  errorAgentUnavailableTitle: 'لم يُجب المساعد',
  errorAgentUnavailableHelp: 'يُرجى المحاولة مرة أخرى بعد قليل.',
  errorNetworkLostTitle: 'انقطع الاتصال',
  errorNetworkLostHelp: 'تحقّق من اتصالك بالإنترنت، ثم اتصل مرة أخرى.',
  errorFailedTitle: 'فشلت المكالمة',
  errorFailedHelp: 'يُرجى المحاولة مرة أخرى لاحقًا.',
};

/** Built-in languages, by primary language subtag. */
export const builtInStrings: Readonly<Record<string, VoiceAgentCallStrings>> = { en, ar };

const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);

function primarySubtag(lang: string | null | undefined): string {
  return (lang ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The strings for `lang` (`ar-EG` → `ar`; unknown → English) with `overrides` on top. */
export function resolveStrings(
  lang: string | null | undefined,
  overrides?: Partial<VoiceAgentCallStrings> | null,
): VoiceAgentCallStrings {
  const base = builtInStrings[primarySubtag(lang)] ?? en;
  return overrides ? { ...base, ...overrides } : base;
}

export function isRtlLanguage(lang: string | null | undefined): boolean {
  return RTL_LANGUAGES.has(primarySubtag(lang));
}

const REASON_KEYS: Record<EndReason, VoiceAgentCallStringKey> = {
  'user-hangup': 'reasonUserHangup',
  'agent-hangup': 'reasonAgentHangup',
  timeout: 'reasonTimeout',
  silence: 'reasonSilence',
  transferred: 'reasonTransferred',
  busy: 'reasonBusy',
  cancelled: 'reasonCancelled',
  failed: 'reasonFailed',
  'network-lost': 'reasonNetworkLost',
  'agent-unavailable': 'reasonAgentUnavailable',
  'microphone-denied': 'reasonMicrophoneDenied',
  'microphone-unavailable': 'reasonMicrophoneUnavailable',
  'setup-failed': 'reasonSetupFailed',
  'element-removed': 'reasonElementRemoved',
  'page-unload': 'reasonPageUnload',
};

export function reasonText(strings: VoiceAgentCallStrings, reason: EndReason): string {
  return strings[REASON_KEYS[reason]];
}

/** End reasons that are problems the visitor may act on, with the strings that say how. */
const ERROR_KEYS: Partial<Record<EndReason, [VoiceAgentCallStringKey, VoiceAgentCallStringKey]>> = {
  'microphone-denied': ['errorMicrophoneDeniedTitle', 'errorMicrophoneDeniedHelp'],
  'microphone-unavailable': ['errorMicrophoneUnavailableTitle', 'errorMicrophoneUnavailableHelp'],
  busy: ['errorBusyTitle', 'errorBusyHelp'],
  'setup-failed': ['errorSetupFailedTitle', 'errorSetupFailedHelp'],
  'agent-unavailable': ['errorAgentUnavailableTitle', 'errorAgentUnavailableHelp'],
  'network-lost': ['errorNetworkLostTitle', 'errorNetworkLostHelp'],
  failed: ['errorFailedTitle', 'errorFailedHelp'],
};

export function errorText(
  strings: VoiceAgentCallStrings,
  reason: EndReason,
): { title: string; help: string } | null {
  const keys = ERROR_KEYS[reason];
  return keys ? { title: strings[keys[0]], help: strings[keys[1]] } : null;
}

/** `mm:ss` (or `h:mm:ss`) for a duration in milliseconds. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return `${hours > 0 ? `${hours}:` : ''}${String(minutes).padStart(2, '0')}:${seconds}`;
}
