// Talk to a person: the strings the element shows for it, in English and Arabic (strings.ts and
// strings-ar.ts spread them into their languages).

export interface TransferStrings {
  /** The `transfer` control. */
  talkToPerson: string;
  /** The status line while the companion and the service hand the call over. */
  statusTransferring: string;
  /** The status line once the call is with a person. */
  statusWithPerson: string;
  /** The notice when the service refused: the call stays with the agent. */
  transferFailed: string;
  /** Who speaks on the other side once the call is with a person (transcript, voice presence). */
  speakerPerson: string;
}

export const transferEn: TransferStrings = {
  talkToPerson: 'Talk to a person',
  statusTransferring: 'Connecting you to a person…',
  statusWithPerson: 'With a person',
  transferFailed: 'We could not connect you to a person. You are still talking with the assistant.',
  speakerPerson: 'Person',
};

export const transferAr: TransferStrings = {
  talkToPerson: 'التحدث إلى شخص',
  statusTransferring: 'جارٍ تحويلك إلى شخص…',
  statusWithPerson: 'مع شخص',
  transferFailed: 'تعذّر تحويلك إلى شخص. ما زلت تتحدث مع المساعد.',
  speakerPerson: 'شخص',
};
