// A client that goes on sending a chunked body after the server has answered, as a browser or
// curl still uploading does: does it read the answer and a clean end, or a reset?
import { connect } from 'node:net';

export interface PastAnswer {
  /** Everything the server sent, as Latin-1. */
  received: string;
  /** Body bytes written after the first byte of the answer arrived. */
  sentAfterAnswer: number;
  /** Socket errors (a reset shows as ECONNRESET or EPIPE). */
  errors: string[];
  /** The server ended its side (FIN) before the socket closed. */
  ended: boolean;
}

/**
 * Sends `head`, then 64 KiB chunks until the server's answer starts and `afterAnswer` bytes more,
 * then ends its side (not before: the server's FIN does not stop it); settles when the socket
 * closes (or after `deadlineMs`).
 */
export function sendPastAnswer(
  url: string,
  head: string,
  afterAnswer: number,
  deadlineMs = 10_000,
): Promise<PastAnswer> {
  const piece = Buffer.alloc(64 * 1024, 0x61);
  const frame = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
  return new Promise((resolve) => {
    // Half-open allowed: the server's FIN does not end this side, which sends on regardless.
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port), allowHalfOpen: true });
    const result: PastAnswer = { received: '', sentAfterAnswer: 0, errors: [], ended: false };
    const timer = setTimeout(() => socket.destroy(new Error(`no close within ${deadlineMs} ms`)), deadlineMs);
    socket.on('error', (error: NodeJS.ErrnoException) => result.errors.push(error.code ?? error.message));
    socket.on('end', () => (result.ended = true));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(result);
    });
    socket.on('data', (data: Buffer) => (result.received += data.toString('latin1')));
    const pump = () => {
      while (!socket.destroyed) {
        if (result.received) {
          if (result.sentAfterAnswer >= afterAnswer) return void socket.end();
          result.sentAfterAnswer += piece.length;
        }
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}
