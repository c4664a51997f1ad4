import type avro from 'avsc';

/** Why a value was refused (thrown inside the walk, caught by {@link AvroSizeGuard.problem}). */
class Refusal extends Error {}

/** The parts of avsc's type objects the walk reads. */
interface AvroTypeParts {
  readonly typeName: string;
  readonly itemsType?: avro.Type;
  readonly valuesType?: avro.Type;
  readonly fields?: readonly { readonly type: avro.Type }[];
  readonly types?: readonly avro.Type[];
  readonly size?: number;
  readonly underlyingType?: avro.Type;
}

/** Where the walk is in a value, and how many array and map items it has met. */
interface Cursor {
  readonly bytes: Uint8Array;
  pos: number;
  items: number;
  readonly maxItems: number;
}

/**
 * Proves, before avsc decodes a value, that every size the value declares fits in its bytes. avsc
 * reads an array or map block count, allocates for it and loops over it before it checks the end of
 * the buffer (a 19-byte value declaring 2³² − 1 items exhausts a 1 GiB heap), and has no hook or
 * limit for it. This walks the writer schema over the bytes as avsc reads them (varints, strings and
 * bytes by length, fixed, unions by branch, records field by field, arrays and maps block by block,
 * nested to any depth) and refuses a value when:
 * - a string, bytes or fixed length runs past the end, or a length is negative;
 * - a block declares n items that cannot fit: n × (the fewest bytes one item can take) exceeds the
 *   bytes left — checked before any item is read;
 * - the items of all the value's arrays and maps together exceed `maxItems` (items that take no
 *   bytes, such as `null`, could otherwise be declared by the billion in a few bytes);
 * - a union branch index is out of range, or a varint runs past 10 bytes or the end.
 * The walk does O(bytes + maxItems) work. One guard per writer schema (it keeps the smallest
 * encoded size of each type).
 */
export class AvroSizeGuard {
  private readonly smallest = new Map<avro.Type, number>();

  constructor(private readonly type: avro.Type) {}

  /** Why `bytes` (one Avro binary value of the schema) cannot be decoded within its size, or `undefined` when it can. */
  problem(bytes: Uint8Array, maxItems: number): string | undefined {
    const cursor: Cursor = { bytes, pos: 0, items: 0, maxItems };
    try {
      this.walk(this.type, cursor);
    } catch (error) {
      if (error instanceof Refusal) return error.message;
      throw error;
    }
    return undefined;
  }

  private walk(type: avro.Type, c: Cursor): void {
    const t = type as unknown as AvroTypeParts;
    switch (t.typeName) {
      case 'null': return;
      case 'boolean': return take(c, 1, 'boolean');
      case 'int': case 'long': case 'abstract:long': case 'enum': readLong(c); return;
      case 'float': return take(c, 4, 'float');
      case 'double': return take(c, 8, 'double');
      case 'string': case 'bytes': {
        const length = readLong(c);
        if (length < 0) throw new Refusal(`${t.typeName} has negative length ${length}`);
        return take(c, length, `${t.typeName} of length ${length}`);
      }
      case 'fixed': return take(c, t.size ?? 0, `fixed of size ${t.size}`);
      case 'array': return this.blocks(c, t.itemsType as avro.Type, false);
      case 'map': return this.blocks(c, t.valuesType as avro.Type, true);
      case 'record': case 'error':
        for (const field of t.fields ?? []) this.walk(field.type, c);
        return;
      case 'union:unwrapped': case 'union:wrapped': {
        const branches = t.types ?? [];
        const index = readLong(c);
        if (!(index >= 0 && index < branches.length)) throw new Refusal(`union branch ${index} does not exist (${branches.length} branches)`);
        return this.walk(branches[index], c);
      }
      default:
        if (t.underlyingType !== undefined) return this.walk(t.underlyingType, c);
        throw new Refusal(`Avro type ${t.typeName} is not supported`);
    }
  }

  /** Array (or map, whose entries have a string key) blocks: each block's count checked against the bytes left and the item limit before its items are read. */
  private blocks(c: Cursor, item: avro.Type, keyed: boolean): void {
    const itemBytes = this.smallestSize(item) + (keyed ? 1 : 0);
    const what = keyed ? 'map' : 'array';
    for (;;) {
      let n = readLong(c);
      if (n === 0) return;
      if (n < 0) {
        n = -n;
        readLong(c);
      }
      const left = c.bytes.length - c.pos;
      if (n * itemBytes > left) throw new Refusal(`${what} block declares ${n} items of at least ${itemBytes} bytes, but only ${left} bytes remain`);
      if (n > c.maxItems - c.items) throw new Refusal(`value declares more than ${c.maxItems} array and map items (${what} block of ${n} items after ${c.items})`);
      c.items += n;
      for (let i = 0; i < n; i++) {
        if (keyed) this.walk(STRING, c);
        this.walk(item, c);
      }
    }
  }

  /** The fewest bytes a value of `type` takes (a lower bound; 0 inside a recursive reference). */
  private smallestSize(type: avro.Type): number {
    const known = this.smallest.get(type);
    if (known !== undefined) return known;
    this.smallest.set(type, 0);
    const t = type as unknown as AvroTypeParts;
    let size: number;
    switch (t.typeName) {
      case 'null': size = 0; break;
      case 'float': size = 4; break;
      case 'double': size = 8; break;
      case 'fixed': size = t.size ?? 0; break;
      case 'record': case 'error': size = (t.fields ?? []).reduce((sum, field) => sum + this.smallestSize(field.type), 0); break;
      case 'union:unwrapped': case 'union:wrapped': size = 1 + Math.min(...(t.types ?? []).map((branch) => this.smallestSize(branch))); break;
      default: size = t.underlyingType !== undefined ? this.smallestSize(t.underlyingType) : 1;
    }
    this.smallest.set(type, size);
    return size;
  }
}

/** The string type of map keys. */
const STRING = { typeName: 'string' } as unknown as avro.Type;

/** Advances past `count` bytes, refusing when they run past the end. */
function take(c: Cursor, count: number, what: string): void {
  if (count > c.bytes.length - c.pos) throw new Refusal(`${what} runs past the end of the value (${c.bytes.length - c.pos} bytes left)`);
  c.pos += count;
}

/** A zig-zag varint as avsc reads it (at most 10 bytes), as a number. */
function readLong(c: Cursor): number {
  let value = 0;
  let scale = 1;
  for (let k = 0; ; k++) {
    if (k === 10) throw new Refusal('varint longer than 10 bytes');
    if (c.pos >= c.bytes.length) throw new Refusal('varint runs past the end of the value');
    const b = c.bytes[c.pos++];
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) break;
    scale *= 128;
  }
  return value % 2 === 1 ? -(value + 1) / 2 : value / 2;
}
