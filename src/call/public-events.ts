// The public event classes, listed once for the places that hand them to a page: the package
// entry (index.ts), the React entry's types (react.ts) and `loadCallApi()` (element/in-call.ts).
export {
  CallStateEvent,
  CallConnectedEvent,
  CallResumedEvent,
  CallTranscriptEvent,
  CallMuteEvent,
  CallHoldEvent,
  CallDtmfEvent,
  CallDeviceEvent,
  CallQualityEvent,
  CallProgressEvent,
  CallTransferEvent,
  CallErrorEvent,
  CallEndedEvent,
  CallConsentEvent,
  CallFeedbackEvent,
} from './events.js';
