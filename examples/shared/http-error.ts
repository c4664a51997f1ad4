/** An error a JSON route answers with its own HTTP status (e.g. 503 before a model is loaded). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'HttpError';
  }
}
