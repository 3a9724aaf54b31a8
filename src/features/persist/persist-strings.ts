// Calls that survive the page: the strings the element shows for them, and their English
// (strings.ts spreads them into its language; the Arabic is persist-strings-ar.ts, in the Arabic
// chunk). The end reason `moved` ("continued in another tab") is the call's, with the others.

export interface PersistStrings {
  /** A call taken up from an earlier page (`persist`) whose microphone the browser asks for again. */
  resumeMicrophoneHint: string;
  /** The button that continues it (asks for the microphone inside the tap). */
  resumeContinue: string;
}

export const persistEn: PersistStrings = {
  resumeMicrophoneHint: 'Your call is still on. Allow the microphone on this page to go on talking.',
  resumeContinue: 'Tap to continue the call',
};
