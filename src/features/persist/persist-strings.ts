// Calls that survive the page: the strings the element shows for them, and their English, which
// comes with persist's view part (persist-part.ts), not the call chunk: only that part shows them.
// The Arabic is persist-strings-ar.ts, in the Arabic chunk; a built-in language and the `strings`
// property override them. The end reason `moved` ("continued in another tab") is the call's, with the others.

export interface PersistStrings {
  /** A call taken up from an earlier page (`persist`) whose microphone the browser asks for again. */
  resumeMicrophoneHint: string;
  /** The button that continues it (asks for the microphone inside the tap). */
  resumeContinue: string;
}

export type PersistStringKey = keyof PersistStrings;

export const persistEn: PersistStrings = {
  resumeMicrophoneHint: 'Your call is still on. Allow the microphone on this page to go on talking.',
  resumeContinue: 'Tap to continue the call',
};
