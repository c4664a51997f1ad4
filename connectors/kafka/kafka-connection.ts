/** TLS to the brokers: the CA that signed their certificates (PEM), and a client certificate for mutual TLS. */
export interface KafkaTls {
  /** PEM text of the CA certificate(s) to trust (default: the system's). */
  readonly ca?: string | undefined;
  /** PEM text of a client certificate and its key, for brokers that require client authentication. */
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
  /** Verify the brokers' certificates (default true; turn off only for tests). */
  readonly rejectUnauthorized?: boolean | undefined;
}

/** SASL authentication: PLAIN (over TLS in production) or SCRAM. */
export interface KafkaSasl {
  readonly mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  readonly username: string;
  readonly password: string;
}

/** How to reach a Kafka cluster: the bootstrap brokers, the client id, and optional TLS and SASL. */
export interface KafkaConnection {
  readonly brokers: readonly string[];
  /** Client id the brokers see (logs, quotas); default `vbstream`. */
  readonly clientId?: string | undefined;
  /** `true` for TLS with the system's CAs, or the TLS settings. */
  readonly ssl?: boolean | KafkaTls | undefined;
  readonly sasl?: KafkaSasl | undefined;
  /** How long to wait for a connection to a broker, ms (default 3,000). */
  readonly connectionTimeoutMs?: number | undefined;
  /**
   * The client library: `platformatic` (`@platformatic/kafka`, the default) or `kafkajs`. The members
   * of one consumer group must all use the same client.
   */
  readonly client?: 'kafkajs' | 'platformatic' | undefined;
}
