// The error a server answers with, for the companion (`HttpError`) and the emulator (`ApiError`)
// alike: a code, the one status its server's table gives that code, and the headers that belong
// to it (`Allow` on a 405). What the body says stays each server's own: the companion's
// `{ error: { code, message } }`, the emulator's copy of the service's. Web APIs only.

export class StatusError<Code extends string> extends Error {
  readonly code: Code;
  readonly status: number;
  /** Response headers that belong to this error. */
  readonly headers: Record<string, string>;

  constructor(
    statusOf: Readonly<Record<Code, number>>,
    code: Code,
    message: string,
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    this.status = statusOf[code];
    this.headers = options.headers ?? {};
  }
}
