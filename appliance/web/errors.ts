import { MESSAGES, type MessageKey } from "./messages.ts";

export interface ErrorExtra {
  field?: string;
  row?: number;
  retry_after?: number;
  detail?: string;
  /** the input the error is about, when the field holds a list */
  value?: string;
}

/** An error the API reports to its caller: an HTTP status, a catalogue key and its English text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly extra: ErrorExtra = {},
    message?: string,
  ) {
    super(message ?? MESSAGES[key]);
  }

  toResponse(): Response {
    return Response.json(
      { error: { key: this.key, message: this.message, ...this.extra } },
      { status: this.status },
    );
  }
}

export const badRequest = (key: MessageKey, extra?: ErrorExtra, message?: string) =>
  new ApiError(400, key, extra, message);
export const notFound = (key: MessageKey = "lang.err.not_found") => new ApiError(404, key);
