// Talk to a person: the strings the element shows for it, and their English (strings.ts spreads
// them into its language; the Arabic is transfer-strings-ar.ts, in the Arabic chunk).

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
