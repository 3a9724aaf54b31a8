// The rating after a call (`feedback`): its strings and their English, which come with its chunk,
// not the call chunk (only its part shows them; consent-strings.ts is the same for the consent
// gate). A built-in language (strings-ar.ts) and the `strings` property override them.

export interface FeedbackStrings {
  /** The rating after a call (the `feedback` attribute): the question. */
  feedbackQuestion: string;
  /** Accessible names of the thumbs up and thumbs down buttons. */
  feedbackUp: string;
  feedbackDown: string;
  /** The optional comment's label, after a thumb was chosen. */
  feedbackCommentLabel: string;
  feedbackSend: string;
  feedbackSkip: string;
  /** Shown and announced once the rating was given. */
  feedbackThanks: string;
}

export type FeedbackStringKey = keyof FeedbackStrings;

export const feedbackEn: FeedbackStrings = {
  feedbackQuestion: 'How was this call?',
  feedbackUp: 'Good',
  feedbackDown: 'Not good',
  feedbackCommentLabel: 'Anything to add? (optional)',
  feedbackSend: 'Send',
  feedbackSkip: 'Skip',
  feedbackThanks: 'Thanks for your feedback.',
};
