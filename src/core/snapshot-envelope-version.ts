/** Version of the envelope `meta` (created-at, records seen, source positions) inside a snapshot container. */
export const SNAPSHOT_ENVELOPE_VERSION = 1;
