// Pure builders of the DataPackets the room sends on the reliable data channel: live transcripts
// as `lk.transcription` text streams (header, one chunk, trailer), as LiveKit agents publish them.
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
