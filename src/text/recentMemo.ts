/**
 * A memo of the last `cap` keys computed: past the cap, the one computed longest ago drops. A bulk
 * write reads each new text once and compares the older texts of its subjects again and again;
 * clearing the whole memo when it filled (what the text readings did before) computed the same texts
 * again every few thousand memories. A hit only reads the map (moving the key to the back made every
 * hit a delete and an insert, and a pair of memories asks the same texts many times).
 */
export class RecentMemo<V> {
  private readonly values = new Map<string, V>();
  /**
   * The two keys asked last: a pair of memories asks for its two texts once per detector, and the
   * same string compares at once, where the map hashes and compares the whole text.
   */
  private last: [string, V] | undefined;
  private before: [string, V] | undefined;

  constructor(private readonly cap: number) {}

  get(key: string, compute: (key: string) => V): V {
    if (this.last?.[0] === key) return this.last[1];
    if (this.before?.[0] === key) return this.before[1];
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.values.size >= this.cap) this.values.delete(this.values.keys().next().value as string);
      this.values.set(key, value);
    }
    this.before = this.last;
    this.last = [key, value];
    return value;
  }
}
