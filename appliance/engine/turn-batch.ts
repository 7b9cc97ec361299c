/**
 * Items gathered within one turn of the event loop and handed over together at its end: the two
 * sides of the engine's thread post one message per turn instead of one per call or event.
 */
export class TurnBatch<T> {
  private items: T[] = [];

  constructor(private readonly send: (items: T[]) => void) {}

  push(item: T): void {
    if (this.items.length === 0) queueMicrotask(() => this.flush());
    this.items.push(item);
  }

  flush(): void {
    if (this.items.length === 0) return;
    const items = this.items;
    this.items = [];
    this.send(items);
  }
}
