/**
 * An array whose buffer can be transferred to another thread without detaching anything else:
 * the array itself when it spans its whole buffer, otherwise a copy.
 */
export function transferable(array: Float64Array): Float64Array {
  return array.byteOffset === 0 && array.byteLength === array.buffer.byteLength && array.buffer instanceof ArrayBuffer ? array : array.slice();
}
