/**
 * The Confluent Schema Registry wire format of a record value: magic byte 0, the schema id as a
 * 4-byte big-endian integer, then the serialized record (Avro binary here).
 */
export const confluentWireFormat = {
  /** Bytes before the payload. */
  headerBytes: 5,
  /** `0x00 · id (int32 BE) · payload`. */
  encode(schemaId: number, payload: Buffer): Buffer {
    const header = Buffer.alloc(5);
    header.writeUInt8(0, 0);
    header.writeInt32BE(schemaId, 1);
    return Buffer.concat([header, payload]);
  },
  /** The schema id of a framed value, or `undefined` when it is not framed (too short, other magic byte). */
  schemaIdOf(value: Buffer): number | undefined {
    if (value.length < 5 || value[0] !== 0) return undefined;
    return value.readInt32BE(1);
  },
} as const;
