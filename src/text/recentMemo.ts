/**
 * A memo of the last `cap` keys computed: past the cap, the one computed longest ago drops. A bulk
 * write reads each new text once and compares the older texts of its subjects again and again;
 * clearing the whole memo when it filled (what the text readings did before) computed the same texts
 * again every few thousand memories. A hit only reads the map (moving the key to the back made every
 * hit a delete and an insert, and a pair of memories asks the same texts many times).
 */
export class RecentMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly cap: number) {}

  get(key: string, compute: (key: string) => V): V {
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (this.values.size >= this.cap) this.values.delete(this.values.keys().next().value as string);
    this.values.set(key, value);
    return value;
  }
}
