/** What one request and one service of the {@link HttpEdge} may take. */
export interface HttpLimits {
  /** Largest request body, bytes; a larger one is answered 413 (unread when its `Content-Length` says so). */
  readonly maxBodyBytes: number;
  /** Deepest nesting of arrays and objects in a JSON body; a deeper one is answered 400 naming `body`, before it is parsed. */
  readonly maxJsonDepth: number;
  /** Longest a client may take to send a request's headers, ms; then it is answered 408 and the connection closed. */
  readonly headersTimeoutMs: number;
  /** Longest a client may take to send a request's body, from its arrival, ms; then 408 and the connection closed. */
  readonly bodyTimeoutMs: number;
  /** Longest the service may take to answer once it has the request (its body read), ms; then 503, retriable, with `Retry-After`. */
  readonly requestTimeoutMs: number;
  /** Connections open at once (idle keep-alive ones and event streams included); one more is closed at once, unanswered. */
  readonly maxConnections: number;
}

/** The {@link HttpLimits} of a service that sets none. */
export const HTTP_LIMITS: HttpLimits = {
  maxBodyBytes: 65_536,
  maxJsonDepth: 64,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  maxConnections: 512,
};
