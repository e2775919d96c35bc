/** A small key/value table for process-wide state (watermarks, last outcomes); values are JSON. */
export interface MetaRepo {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}
