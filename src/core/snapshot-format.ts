/** Magic bytes "VBSN" that open every encoded snapshot. */
export const SNAPSHOT_MAGIC = 0x4e534256;
/** Version of the binary container (not of any family's state layout). */
export const SNAPSHOT_CONTAINER_VERSION = 1;
