/** The last `capacity` items pushed, oldest first: a fixed-size ring buffer (the live view's history). */
export class BoundedRing<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private filled = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.filled < this.capacity) this.filled++;
  }

  get size(): number {
    return this.filled;
  }

  /** The items, oldest first. */
  toArray(): T[] {
    const start = (this.next - this.filled + this.capacity) % this.capacity;
    return Array.from({ length: this.filled }, (_, i) => this.items[(start + i) % this.capacity] as T);
  }
}
