// Pure builders and readers of DataPackets on the reliable data channel: live transcripts as
// `lk.transcription` text streams (header, one chunk, trailer), as LiveKit agents publish them,
// and the caller's keypad tones (`sipDtmf`, what livekit-client's `publishDtmf` sends).
import {
  DataPacket,
  DataPacket_Kind,
  DataStream_Chunk,
  DataStream_Header,
  DataStream_OperationType,
  DataStream_TextHeader,
  DataStream_Trailer,
} from '@livekit/protocol';

export const TRANSCRIPTION_TOPIC = 'lk.transcription';

export interface TranscriptionSegment {
  /** A fresh id per stream, `TS_…`. */
  streamId: string;
  /** Stable across the interim versions of one line and its final version, `SG_…`. */
  segmentId: string;
  /** Whose speech this is: the sid of the agent's or the caller's audio track. */
  trackSid: string;
  /** The identity the packet is attributed to (the agent publishes both sides). */
  senderIdentity: string;
  text: string;
  final: boolean;
  timestampMs: number;
}

export function transcriptionPackets(segment: TranscriptionSegment): DataPacket[] {
  const content = new TextEncoder().encode(segment.text);
  const packet = (value: DataPacket['value']) =>
    new DataPacket({ kind: DataPacket_Kind.RELIABLE, participantIdentity: segment.senderIdentity, value });
  return [
    packet({
      case: 'streamHeader',
      value: new DataStream_Header({
        streamId: segment.streamId,
        timestamp: BigInt(segment.timestampMs),
        topic: TRANSCRIPTION_TOPIC,
        mimeType: 'text/plain',
        totalLength: BigInt(content.byteLength),
        attributes: {
          'lk.transcribed_track_id': segment.trackSid,
          'lk.segment_id': segment.segmentId,
          'lk.transcription_final': segment.final ? 'true' : 'false',
        },
        contentHeader: {
          case: 'textHeader',
          value: new DataStream_TextHeader({ operationType: DataStream_OperationType.CREATE }),
        },
      }),
    }),
    packet({
      case: 'streamChunk',
      value: new DataStream_Chunk({ streamId: segment.streamId, chunkIndex: 0n, content }),
    }),
    packet({ case: 'streamTrailer', value: new DataStream_Trailer({ streamId: segment.streamId }) }),
  ];
}

/** The interim texts of a line spoken word by word: "Hello", "Hello there", … (the last is the whole line). */
export function growingPrefixes(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  return words.map((_, index) => words.slice(0, index + 1).join(' '));
}

/**
 * The keypad's digits and their RFC 4733 event codes (0-9, `*` 10, `#` 11, A-D 12-15): what
 * `publishDtmf(code, digit)` takes, and what a SIP trunk turns into tones.
 */
export const DTMF_CODES: Readonly<Record<string, number>> = {
  ...Object.fromEntries(Array.from({ length: 10 }, (_, digit) => [String(digit), digit])),
  '*': 10,
  '#': 11,
  A: 12,
  B: 13,
  C: 14,
  D: 15,
};

/** What a DataPacket from the caller is to the room: a keypad digit, a broken one, or something else. */
export type CallerPacket = { kind: 'keypad'; digit: string } | { kind: 'invalid'; reason: string } | { kind: 'other' };

/**
 * Reads a DataPacket the caller sent. A `sipDtmf` packet counts when its digit is one keypad
 * character and its code the digit's RFC 4733 event; bytes that are no DataPacket, and keypad
 * packets that do not agree, are `invalid` (the room ignores them and says why in its log).
 */
export function readCallerPacket(bytes: Uint8Array): CallerPacket {
  let packet: DataPacket;
  try {
    packet = DataPacket.fromBinary(bytes);
  } catch {
    return { kind: 'invalid', reason: `${bytes.byteLength} bytes that are not a DataPacket` };
  }
  if (packet.value.case !== 'sipDtmf') return { kind: 'other' };
  const { code, digit } = packet.value.value;
  const expected = Object.hasOwn(DTMF_CODES, digit) ? DTMF_CODES[digit] : undefined;
  if (expected === undefined)
    return { kind: 'invalid', reason: `keypad digit ${JSON.stringify(digit.slice(0, 8))} is not 0-9, *, #, A-D` };
  if (code !== expected)
    return { kind: 'invalid', reason: `keypad digit ${digit} came with code ${code}, not ${expected}` };
  return { kind: 'keypad', digit };
}
