/**
 * How a topic vbstream creates (snapshots, dead letters, decisions, predictions) is replicated:
 * `replicationFactor` copies, and `minInsyncReplicas` that must hold a write before `acks=all`
 * acknowledges it. Defaults: min(3, brokers) copies and min.insync.replicas = copies − 1 (at least 1),
 * so a single-broker development cluster works and a real cluster survives the loss of a broker
 * without losing an acknowledged snapshot.
 */
export interface TopicDurability {
  readonly replicationFactor?: number | undefined;
  readonly minInsyncReplicas?: number | undefined;
}
